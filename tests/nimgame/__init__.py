"""Nim by mail, a game that lives only in the tests: proof that a new game is one folder and one registry line
(`conftest.TEST_GAMES`, or an installed package's `pbem.games` entry point naming `ENTRY`: tests/test_games_installed.py),
played, mailed, drawn and archived by the same GM workflow as the shipped games.

`rules.py` holds its rules and action format (`take: N from HEAP`), `board.py` its view, text board and picture.
"""
from __future__ import annotations

from pbem import games
from pbem.dm.base import Config

ENTRY = games.Entry("nim", "Nim", games.Kind.MATCH, "nimgame.rules:Nim", ("pbem.formats.transcript",),
                    "nimgame.board:picture", "nimgame.board:text")

SAMPLE = Config("nim", ("Ann", "Bob"), options={"heaps": [3, 4, 5]})  # the conformance suite's match
