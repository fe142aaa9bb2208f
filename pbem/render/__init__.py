"""render layer (DESIGN.md "Layers", "Reports"): board pictures, HTML pages, text tables, emails, the site.

Entry points for the turn cycle and the command line:

- `build_turn_report(game, turn, boards)` → `TurnReport`: one `BoardTurn` per board (a Geek-o
  player's room, or the shared BotWars board) made from the engine's `TurnResult`:
  `BoardTurn(title, room, result.snapshots, result.events, result.board, players=(...))`.
  Draws every picture once (the room's floor is cached per room).
- `write_turn_report(out_dir, report, recipients=[Recipient(player, address)], sender=...)`
  (`recipients(players)` makes them from the store's player rows):
  the turn's folder — `index.html` (every stage), `stage-N.html`, `final.html`, the PNGs,
  `legend.png`, and `mail/<player>.eml` per recipient.
- `player_message(report, recipient, sender)` → `email.message.EmailMessage` (for the mail sender);
  `message_bytes(message)` → the `.eml` bytes.
- `turn_sheet_html(sheet)`, `turn_sheet_text(sheet)`, `turn_sheet_message(sheet, sender)`: the turn
  cycle's `TurnSheet` (HP, fused registers, hands, pre-filled order file) as a page, text, email.
- `write_site(out_dir, [GameHistory(name, [TurnReport…], Summary(campaign.standings(state)))])`: the static site;
  with `version=…`, only what changed since the last run (`StoredTurn`s are loaded only when written, the
  `Summary` given as a function only when the game's index is made again).
- From the turn cycle (`history.py`): `outcome_report(game, state_before, outcome, players)` for a turn played
  by `campaign.play_turn`, just now (a `--preview` too) or read back from the store (`pbem.store.played`); the
  outcome carries what B4.6 played for missing orders. Render reads no database and never runs the rules again:
  `pbem.gm.history` hands it a game's stored turns (`pbem report`, `pbem site`, `pbem demo`).
- `draw_board(board)`, `draw_position(position)`, `position_png(position)`: single pictures;
  `draw_legend()`: every element with its name.

Death-match pictures are drawn by `dm.py` (one drawer per game).
"""
from __future__ import annotations

import importlib
from typing import Any

# Each entry point and the module it lives in: importing one (`from pbem.render.message import …` too) loads only
# that module, so a command that renders nothing pays for neither Pillow nor Jinja (PEP 562 lazy attributes).
_MODULES = {
    "draw_board": "board", "draw_position": "board", "position_png": "board", "draw_legend": "legend",
    "message_bytes": "message", "Position": "model",
    "turn_sheet_html": "sheet", "turn_sheet_message": "sheet", "turn_sheet_text": "sheet",
    "GameHistory": "site", "Summary": "site", "write_site": "site",
    "BoardTurn": "turn", "Recipient": "turn", "TurnReport": "turn", "build_turn_report": "turn",
    "player_message": "turn", "recipients": "turn", "write_turn_report": "turn",
}
__all__ = sorted(_MODULES)


def __getattr__(name: str) -> Any:
    if name not in _MODULES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_MODULES[name]}", __name__), name)
