"""The GM's workflow (DESIGN.md item 7): each step a plain function over a store session (and a time value when it
needs one), committing once with the mail it queues; the CLI only parses and prints.

- `players`: a player's settings the GM changes during a game (their time zone).
"""
