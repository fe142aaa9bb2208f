"""Mail layer (DESIGN.md "Layers"): orders in by mail, acknowledgements, reports and turn sheets out.

- `config`: the servers and limits, from a YAML file and the environment.
- `inbox`: messages from a Maildir, an mbox file or IMAP; the archive every message is kept in.
- `letters`: one message read: its sender, and the orders in its body or YAML attachment.
- `fetch`: each message handled once: authenticated, submitted as `pbem turn submit` / `pbem dm act` would, answered.
- `ack`: the acknowledgement each message gets.
- `outbox`: a message queued, and one sent over SMTP or into a folder, saying what became of it (the send loop and
  its commits are `pbem.gm.outgoing`'s).
- `post`: what a game mails out (reports and turn sheets), as the renderer builds them.
- `preview`, `notices`: the reply to a rehearsal, reminders and other notices, worded from what gm hands them.

Mail commits nothing and runs no rule (tests/test_house.py).
"""
