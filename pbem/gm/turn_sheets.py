"""The turn sheets of a dealt turn: what the engine says each robot may program (its usable cards, free
registers, why it gets none), the order template, and the deadline in each player's own time zone. No rendering
here: `turn check` and `turn deal` build sheets without loading the renderer."""
from __future__ import annotations

from sqlmodel import Session

from ..engine.campaign import GameState
from ..engine.deal import can_use, free_registers
from ..formats.controls import paused_due
from ..formats.orders import order_template
from ..formats.schedule import due_text, reminders_of
from ..store.controls import holders, paused
from ..store.games import players_of
from ..store.schedule import deadline_of, schedule_for
from ..store.tables import Game
from ..store.turns import RobotSheet, TurnSheet


def turn_sheets(session: Session, game: Game, state: GameState) -> list[TurnSheet]:
    """Every player's turn sheet for the dealt turn: what the engine says each robot may program, with the
    deadline in the player's own time zone."""
    rules = state.setup.rules()
    deadline, schedule = deadline_of(session, game, state.turn), schedule_for(session, game)
    pause, holding = paused(session, game), holders(session, game)
    sheets = []
    for player in players_of(session, game):
        due = due_text(deadline.due_at, schedule.timezone, player.timezone) if deadline and schedule else ""
        due = paused_due(pause.remaining) if pause is not None else due
        if state.is_over or state.done_playing(player.name):
            continue  # a player still in the game gets a sheet even when no robot of theirs gets cards: it says why
        programmed = state.needs_program(player.name)
        in_hand = state.hands_of(player.name)
        robots = [RobotSheet(r.name, r.mode, r.hp, str(r.at) if r.at else None, r.facing.name,
                             {n: (str(c) if c else None) for n, c in sorted(r.registers.items())},
                             r.name in programmed, free_registers(r, rules),
                             "" if r.name in programmed else state.no_cards_reason(r.name),
                             [str(c) for c in in_hand.get(player.name if rules.shared_hand else r.name, [])
                              if can_use(r, c, rules)] if r.name in programmed else [], rules.registers)
                  for r in state.robots_of(player.name)]
        hands = {key: [str(c) for c in cards] for key, cards in in_hand.items() if cards}
        template = order_template(game.name, state.turn, player.name, state.players[player.name].robots,
                                  option_hp=rules.options_absorb_damage, secret=player.secret)
        board = state.board_of(player.name)
        sheets.append(TurnSheet(game.name, state.turn, player.name, player.email, board.room.name, robots, hands,
                                template, exact_program=not state.geeko, due=due, board=board,
                                equal_lengths=rules.equal_length_programs,
                                option_hp_max=rules.max_hp if rules.options_absorb_damage else 0,
                                due_at=deadline.due_at if deadline and schedule else None,
                                holder=holding.get(player.name, ""),
                                written_at=deadline.dealt_at if deadline and schedule else None,
                                reminders=reminders_of(schedule, deadline.dealt_at, deadline.due_at)
                                if deadline and schedule else ()))
    return sheets
