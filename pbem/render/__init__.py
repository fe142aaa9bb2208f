"""render layer (DESIGN.md "Layers", "Reports"): board pictures, HTML pages, text tables, emails, the site.

Entry points for the turn cycle and the command line:

- `build_turn_report(game, turn, boards)` → `TurnReport`: one `BoardTurn` per board (a Geek-o
  player's room, or the shared BotWars board) made from the engine's `TurnResult`:
  `BoardTurn(title, room, result.snapshots, result.events, result.board, players=(...))`.
  Draws every picture once (the room's floor is cached per room).
- `write_turn_report(out_dir, report, recipients=[Recipient(player, address)], sender=...)`:
  the turn's folder — `index.html` (every stage), `stage-N.html`, `final.html`, the PNGs,
  `legend.png`, and `mail/<player>.eml` per recipient.
- `player_message(report, recipient, sender)` → `email.message.EmailMessage` (for the mail sender);
  `message_bytes(message)` → the `.eml` bytes.
- `turn_sheet_html(sheet)`, `turn_sheet_text(sheet)`, `turn_sheet_message(sheet, sender)`: the turn
  cycle's `TurnSheet` (HP, fused registers, hands, pre-filled order file) as a page, text, email.
- `write_site(out_dir, [GameHistory(name, [TurnReport…], standings=campaign.standings(state))])`: the static site.
- From the turn cycle (`history.py`): `outcome_report(game, state_before, outcome, players, used)` for a turn
  just played by `campaign.play_turn` (stored or a `--preview`); `stored_turn_report(session, game, n)`
  and `game_history(session, name, with_mail=False)` rebuild reports from the store;
  `recipients(session, game)` lists the players' addresses. `pbem report`, `pbem site` and
  `pbem demo` use these.
- `draw_board(board)`, `draw_position(position)`, `position_png(position)`: single pictures;
  `draw_legend()`: every element with its name.

Death-match pictures are drawn by `dm.py` (one drawer per game).
"""
from .board import draw_board, draw_position, position_png
from .legend import draw_legend
from .message import message_bytes
from .model import Position
from .sheet import turn_sheet_html, turn_sheet_message, turn_sheet_text
from .site import GameHistory, write_site
from .turn import BoardTurn, Recipient, TurnReport, build_turn_report, player_message, write_turn_report

__all__ = [
    "BoardTurn", "GameHistory", "Position", "Recipient", "TurnReport",
    "build_turn_report", "draw_board", "draw_legend", "draw_position", "message_bytes", "player_message",
    "position_png", "turn_sheet_html", "turn_sheet_message", "turn_sheet_text", "write_site",
    "write_turn_report",
]
