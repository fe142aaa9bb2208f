"""Nim by mail, a game that lives only in the tests: proof that a new game is one folder and one registry line
(`conftest.TEST_GAMES`), played, mailed, drawn and archived by the same GM workflow as the shipped games.

`rules.py` holds its rules and action format (`take: N from HEAP`), `board.py` its view, text board and picture.
"""
from __future__ import annotations

from pbem.dm.base import Config

SAMPLE = Config("nim", ("Ann", "Bob"), options={"heaps": [3, 4, 5]})  # the conformance suite's match
