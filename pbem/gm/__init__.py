"""gm layer (DESIGN.md "Layers", item 7): the GM's workflow, as plain functions over a store session and a time.

Each function is one step: it takes the game's lock, does its work, records it in the game's history
(`store.controls`), queues the mail it owes the people it concerns, and commits once; the command line only
parses and prints.

- `cycle`: the turn cycle: deal, submit/check, process, rollback, replay (the engine over the stored turns).
- `archive`: `game import` / `game export` of whole campaign folders.
- `clock`: a turn's deadline started, extended, paused and resumed.
- `roster`: a player replaced, an address changed, observers added and removed.
- `absence`: announced absences, and what the game's policy does about them.
- `policy`: the game's control policies (press, absence).
- `broadcast`: the GM's message to everyone in a game.
- `press`: players' messages to each other, relayed by the GM's address.
- `mailcommands`: what a player may ask by mail (resend, status, help, address, press).
- `pilot`: the robot pilot's order file for a player.
- `tell`: the mail every control sends.
- `ending`: a player with no more turns, and the end of a game, told to everyone concerned.
- `players`: a player's settings the GM changes during a game (their time zone).
- `moves`: a death match's actions judged and recorded as moves, its position rebuilt, passed deadlines applied,
  its one deadline row written (`matchtick`: what that row says, from the position).
- `newmatch`: `dm new`: a match and a transcript's moves written in one step, without the ORM (#34).
- `matches`: death matches by mail: the opening mail, the GM's commands on the one clock, the news of a move.
- `intake`: each fetched message judged and answered in one transaction, under the game's lock.
- `schedule`: `pbem run` and `pbem turn approve`: deal, remind, all-in, review hold, process, reports owed, send.
- `reports`: report folders and turn sheets written; `turn process` and `pbem report` with their reports settled.
- `texts`: plain-text results of the turn cycle (submissions, turn summaries).
- `setup`: `game new`; `outgoing`: `mail send`'s queue, and the send loop of every run with its commits.
- `preview`: orders sent with `preview: true` rehearsed; `order_help`: what a reply about orders teaches.
- `turn_sheets`: the turn sheets of the dealt turn; `sheets`: one sent again.
"""
