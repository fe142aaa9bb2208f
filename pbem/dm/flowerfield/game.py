"""Flower Field (RULES D4): plant one or two flowers, or challenge the opponent's latest move.

Options: `lives` (3), `adjacent` (D4.2, default per variant), `missed_latest:
lose_life | refuse` — a challenge whose baskets miss the opponent's latest
flowers is a failed challenge (D4.4, the default) or is refused unplayed —
and `clock` (D5, default per variant). On a full board a failed challenge
ends the game, while a successful one undoes the last move and play goes on;
a pass is only for the full board (D4.5).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from ...engine.vocabulary import Termination
from ..base import Action, Config, Option, Result, Setup, opponent
from ..cells import cell_name, neighbours, parse_cell
from ..clock import CLOCK_ABOUT, START, Clock, Deadline, TimeControl, control_text, start
from ..turngame import TurnGame
from ..views import FlowerFieldView, MissedView
from .fields import EMPTY, duplicate_pairs, field_at, field_key, named_pairs
from .variants import Variant, variant

SIZE = 7
CENTRE = 3 * SIZE + 3  # D4
MOVES = ("plant", "challenge", "give_up", "pass")
OPTIONS = {
    "lives": Option(3, whole=True, unit="lives", about="D4.1: lives each"),
    "adjacent": Option(None, (True, False), shown_default="the variant's (true but in primary)",
                       about="D4.2: a flower must touch one planted before this turn"),
    "missed_latest": Option("lose_life", ("lose_life", "refuse"),
                            about="D4.4: a challenge missing the opponent's latest flowers fails, or is refused"),
    "clock": Option(None, read=lambda value, default: TimeControl.from_options({"clock": value}, default),
                    unit="seconds", shown_default="the variant's (classic: {turn: 120, reserve: 600, step: 60, "
                    "bonus: {challenge: 60}})", about=CLOCK_ABOUT),
    "start": START,
}


@dataclass(frozen=True)
class Settings:
    """The match's variant and options, read once when it is set up."""

    variant: Variant
    lives: int
    adjacent: bool
    missed_latest: str
    clock: TimeControl
    start: datetime | None = None


@dataclass(frozen=True)
class Plant:
    player: str
    flowers: tuple[tuple[int, str], ...]  # (cell, kind letter)

    @property
    def cells(self) -> tuple[int, ...]:
        return tuple(cell for cell, _ in self.flowers)


@dataclass(frozen=True)
class State:
    config: Config
    settings: Settings
    board: str  # 49 letters, row A first; EMPTY for no flower
    to_move: str
    lives: tuple[tuple[str, int], ...]
    plants: tuple[Plant, ...] = ()  # the plants standing on the board, oldest first
    event: str = ""  # what the last action did, for the players
    winner: str | None = None
    ending: str = ""
    termination: Termination | None = None
    clock: Clock | None = None
    undone: bool = False  # the turn just before was a successful challenge: no plant is open to challenge (D4.4)

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def full(self) -> bool:
        return EMPTY not in self.board


def settings_of(config: Config) -> Settings:
    """The variant and options of a match; SetupError lists every problem."""
    setup = Setup(config, OPTIONS)
    setup.two_players("Flower Field")
    chosen = setup.checked("variant", lambda: variant(config.variant), variant(None))
    values = setup.read(OPTIONS, {"adjacent": chosen.adjacent, "clock": chosen.clock})
    setup.done()
    return Settings(chosen, **values)


class FlowerField(TurnGame[State]):
    name = "flowerfield"
    title = "Flower Field"
    options = OPTIONS

    def new_state(self, config: Config) -> State:
        settings = settings_of(config)
        board = [EMPTY] * (SIZE * SIZE)
        if settings.variant.centre:
            board[CENTRE] = settings.variant.centre
        return State(config, settings, "".join(board), config.players[0],
                     tuple((p, settings.lives) for p in config.players), clock=start(settings.clock, config.players, settings.start))

    def time_control(self, state: State) -> TimeControl:
        return state.settings.clock

    def news(self, before: State, after: State) -> list[str]:
        return [after.event] if after.event and after != before else []

    def rules_text(self, state: State) -> str:
        s = state.settings
        kinds = ", ".join(f"{k.letter} ({k.name})" for k in s.variant.kinds)
        near = " next to flowers already there" if s.adjacent else ""
        return (f"Flower Field, {s.variant.name} (RULES D4): a 7x7 board, rows A-G, columns 1-7; flowers {kinds}. "
                f"On your turn plant up to {s.variant.per_turn} flower(s){near}, or challenge: name two duplicate "
                "fields (four connected flowers, the same under a rotation or reflection), one with a flower of "
                "the opponent's last plant. A right challenge costs the opponent a life and undoes that plant; a "
                f"wrong one (or giving up) costs you one. {s.lives} lives each; no lives left loses; on a full "
                f"board the other player may challenge or pass, then more lives wins. {control_text(s.clock)}")

    def deadline(self, state: State) -> Deadline | None:
        """The turn ends when a challenge is last in time; a plant (or a pass) is due its bonus earlier (D5)."""
        running = super().deadline(state)
        bonus = (state.settings.clock.bonus or {}).get("challenge", 0)
        if running is None or not bonus:
            return running
        early = "pass" if state.full else "plant"
        return replace(running, by_kind=((f"to {early}", running.at - timedelta(seconds=bonus)),
                                         ("to challenge or give up", running.at)))

    def action_kind(self, action: Action) -> str | None:
        return "challenge" if "challenge" in action.payload or "give_up" in action.payload else None

    # --- checking ---------------------------------------------------------------------------

    def check_move(self, state: State, action: Action) -> str | None:
        payload = action.payload
        moves = [key for key in MOVES if key in payload]
        unknown = sorted(set(payload) - set(MOVES))
        if unknown:
            return f"unknown field {unknown[0]!r} (plant, challenge, give_up or pass)"
        if len(moves) != 1:
            return "an action is one of plant, challenge, give_up or pass"
        move = moves[0]
        if move == "plant":
            try:
                self.parse_plant(state, payload["plant"])
            except ValueError as err:
                return str(err)
            return None
        if move == "challenge":
            try:
                baskets = parse_baskets(payload["challenge"])
            except ValueError as err:
                return str(err)
            latest = self.latest(state)
            if state.settings.missed_latest == "refuse" and not (latest and set(latest.cells) & (baskets[0] | baskets[1])):
                return "neither field includes a flower from the opponent's latest move"
            return None
        if payload[move] is not True:
            return f"{move} must be `true`"
        if move == "pass" and not state.full:
            return "a pass is only for the full board (D4.5); plant or challenge"
        return None

    def parse_plant(self, state: State, entries: Any) -> tuple[tuple[int, str], ...]:
        """The flowers of a plant order; ValueError saying what is wrong."""
        chosen, adjacent = state.settings.variant, state.settings.adjacent
        if state.full:
            raise ValueError("the board is full: challenge or pass")
        if isinstance(entries, str):
            entries = [entries]
        if not isinstance(entries, list) or not 1 <= len(entries) <= chosen.per_turn:
            most = "one flower" if chosen.per_turn == 1 else f"one to {chosen.per_turn} flowers"
            raise ValueError(f"plant {most} per turn, like [R D5, B C4]")
        flowers = []
        for entry in entries:
            words = str(entry).split()
            if len(words) < 2:
                raise ValueError(f"a flower is KIND CELL like 'R D5', not {entry!r}")
            if _looks_like_cell(words[-1]):
                cell_word, kind_words = words[-1], words[:-1]
            else:
                cell_word, kind_words = words[0], words[1:]
            cell = parse_cell(cell_word, SIZE, SIZE)
            flowers.append((cell, chosen.kind(" ".join(kind_words))))
        cells = [cell for cell, _ in flowers]
        if len(set(cells)) != len(cells):
            raise ValueError(f"{cell_name(cells[0], SIZE)} is planted twice")
        any_flower = any(square != EMPTY for square in state.board)
        for cell in cells:
            name = cell_name(cell, SIZE)
            if state.board[cell] != EMPTY:
                raise ValueError(f"{name} already holds a flower")
            if adjacent and any_flower and all(state.board[n] == EMPTY for n in neighbours(cell, SIZE, SIZE)):
                raise ValueError(f"{name} is not next to a flower planted before this turn (D4.2)")
        return tuple(flowers)

    # --- applying ---------------------------------------------------------------------------

    def apply_move(self, state: State, action: Action) -> State:
        payload = action.payload
        player = action.player
        if "plant" in payload:
            flowers = self.parse_plant(state, payload["plant"])
            board = list(state.board)
            for cell, kind in flowers:
                board[cell] = kind
            planted = " ".join(f"{kind} {cell_name(cell, SIZE)}" for cell, kind in flowers)
            return replace(state, board="".join(board), plants=state.plants + (Plant(player, flowers),),
                           to_move=opponent(state.config.players, player), event=f"{player} plants {planted}",
                           undone=False)
        if "pass" in payload:
            return self.end_by_lives(replace(state, event=f"{player} passes on the full board"))
        baskets = parse_baskets(payload["challenge"]) if "challenge" in payload else None
        failure = self.adjudicate(state, baskets)
        if failure is None:
            return self.challenge_succeeded(state, player)
        was_full = state.full
        state = self.lose_life(state, player, f"{player}'s challenge fails: {failure}")
        if not state.over and was_full:
            state = self.end_by_lives(state)
        return state

    def adjudicate(self, state: State, baskets: tuple[frozenset[int], frozenset[int]] | None) -> str | None:
        """D4.4: why a challenge fails, or None when it succeeds."""
        if baskets is None:
            return "gave up"
        placements = []
        for basket in baskets:
            names = "-".join(cell_name(c, SIZE) for c in sorted(basket))
            empty = [cell_name(c, SIZE) for c in sorted(basket) if state.board[c] == EMPTY]
            if empty:
                return f"{names} is not a flower field ({', '.join(empty)} empty)"
            placement = field_at(basket, state.board, SIZE, SIZE)
            if placement is None:
                return f"{names} is not a flower field (not connected)"
            placements.append(placement)
        if baskets[0] == baskets[1]:
            return "the two fields are the same cells"
        if field_key(placements[0], state.board) != field_key(placements[1], state.board):
            return "the fields are not duplicates (shape or kinds differ under every rotation and reflection)"
        latest = self.latest(state)
        if latest is None or not set(latest.cells) & (baskets[0] | baskets[1]):
            return "neither basket includes a flower from the opponent's latest move"
        return None

    def challenge_succeeded(self, state: State, challenger: str) -> State:
        """The opponent loses a life and their latest move is undone; they move again."""
        victim = opponent(state.config.players, challenger)
        undone = state.plants[-1]
        board = list(state.board)
        for cell in undone.cells:
            board[cell] = EMPTY
        state = replace(state, board="".join(board), plants=state.plants[:-1], to_move=victim, undone=True)
        cells = " ".join(cell_name(c, SIZE) for c in undone.cells)
        return self.lose_life(state, victim, f"{challenger}'s challenge succeeds: {victim}'s {cells} undone")

    def lose_life(self, state: State, player: str, event: str) -> State:
        lives = tuple((p, n - 1 if p == player else n) for p, n in state.lives)
        state = replace(state, lives=lives, event=event)
        if dict(lives)[player] == 0:
            return replace(state, winner=opponent(state.config.players, player), ending=f"{player} has no lives left",
                           termination=Termination.NO_LIVES)
        return state

    def end_by_lives(self, state: State) -> State:
        """D4.5: more lives wins; equal, the player who placed the last flower."""
        (first, a), (second, b) = state.lives
        placer = state.plants[-1].player if state.plants else state.to_move
        if a == b:
            return replace(state, winner=placer, ending="board full, equal lives: the last planter wins",
                           termination=Termination.BOARD_FULL)
        return replace(state, winner=first if a > b else second, ending="board full: more lives",
                       termination=Termination.BOARD_FULL)

    def lose_on_time(self, state: State, player: str) -> State:
        ending = f"{player} ran out of time"
        return replace(state, winner=opponent(state.config.players, player), ending=ending, event=ending,
                       termination=Termination.OUT_OF_TIME)

    # --- reading ----------------------------------------------------------------------------

    def candidates(self, state: State) -> list[Action]:
        """Single-flower plants of every kind on every empty cell, the challenges of every duplicate pair on
        the board, giving up and passing (two-flower plants are legal too, but not listed)."""
        kinds = state.settings.variant.kinds
        mover = state.to_move
        found = [Action(mover, {"plant": [f"{kind.letter} {cell_name(cell, SIZE)}"]})
                 for cell in range(SIZE * SIZE) if state.board[cell] == EMPTY for kind in kinds]
        found += [Action(mover, {"challenge": [list(first), list(second)]})
                  for first, second in named_pairs(state.board)[:200]]
        return found + [Action(mover, {"give_up": True}), Action(mover, {"pass": True})]

    def hints(self, state: State, player: str) -> list[str]:
        if state.over or player != state.to_move:
            return []
        hints = [] if state.full else [f"{{plant: [{self._example_plant(state)}]}}  " + (
            f"up to {state.settings.variant.per_turn} flower(s)"
            + (" next to flowers already there" if state.settings.adjacent else ""))]
        if self.latest(state) is not None:
            hints.append("{challenge: [[D2, D3, E3, F3], [D3, E3, E4, E5]]}  two duplicate fields, one touching "
                         "the last plant")
        if state.full:  # first: the reply lines offered end the game rather than stake a life on an example
            return ["{pass: true}  the board is full: end the game", *hints]
        return hints + ["{give_up: true}  a failed challenge"]

    def _example_plant(self, state: State) -> str:
        """A plant legal now, in this variant's own letters: as many flowers as a turn allows, on the first cells
        (row A first) that take one."""
        letters = [kind.letter for kind in state.settings.variant.kinds]
        chosen: list[str] = []
        for cell in range(SIZE * SIZE):
            entry = f"{letters[len(chosen) % len(letters)]} {cell_name(cell, SIZE)}"
            try:
                self.parse_plant(state, chosen + [entry])
            except ValueError:
                continue
            chosen.append(entry)
            if len(chosen) == state.settings.variant.per_turn:
                break
        return ", ".join(chosen)

    def latest(self, state: State) -> Plant | None:
        """The opponent's plant of the turn just before (what a challenge must touch); never an older plant
        that an undo brought back to the top (D4.4 ruling)."""
        if state.plants and state.plants[-1].player != state.to_move and not state.undone:
            return state.plants[-1]
        return None

    def is_over(self, state: State) -> bool:
        return state.over

    def result(self, state: State) -> Result:
        return Result(state.over, state.winner, lives=dict(state.lives), termination=state.termination)

    def render_data(self, state: State) -> FlowerFieldView:
        chosen = state.settings.variant
        last = state.plants[-1] if state.plants else None
        return {
            "game": self.name,
            "variant": chosen.name,
            "kinds": [{"letter": k.letter, "name": k.name, "colour": k.colour} for k in chosen.kinds],
            "board": [state.board[r * SIZE:(r + 1) * SIZE] for r in range(SIZE)],
            "lives": dict(state.lives),
            "clock": self.clock_data(state),
            "to_move": None if state.over else state.to_move,
            "last": None if last is None else {
                "player": last.player, "cells": [cell_name(c, SIZE) for c in last.cells]},
            "event": state.event,
            "winner": state.winner,
            "ending": state.ending,
            "missed": missed_duplicates(state) if state.over else [],
        }


def parse_baskets(value: Any) -> tuple[frozenset[int], frozenset[int]]:
    """Two baskets of four different cells each; ValueError otherwise."""
    if not isinstance(value, list) or len(value) != 2:
        raise ValueError("a challenge names two baskets, like [[D2, D3, E3, F3], [D3, E3, E4, E5]]")
    baskets = []
    for basket in value:
        names = basket.replace("-", " ").split() if isinstance(basket, str) else basket
        if not isinstance(names, list) or len(names) != 4:
            raise ValueError(f"a basket is four cells, not {basket!r}")
        cells = frozenset(parse_cell(name, SIZE, SIZE) for name in names)
        if len(cells) != 4:
            raise ValueError(f"a basket is four different cells, not {basket!r}")
        baskets.append(cells)
    return baskets[0], baskets[1]


def _looks_like_cell(word: str) -> bool:
    try:
        parse_cell(word, SIZE, SIZE)
    except ValueError:
        return False
    return True


def missed_duplicates(state: State) -> list[MissedView]:
    """The post-game report (D4.6): every duplicate pair left on the board and the move that made it."""
    made_by = {}
    for number, plant in enumerate(state.plants, start=1):
        for cell in plant.cells:
            made_by[cell] = (number, plant.player, " ".join(f"{kind} {cell_name(c, SIZE)}" for c, kind in plant.flowers))
    report: list[MissedView] = []
    for first, second in duplicate_pairs(state.board, SIZE, SIZE):
        number, player, planted = max(made_by.get(c, (0, "", "")) for c in first.cells + second.cells)
        report.append(MissedView(pair=[list(first.names), list(second.names)], move=number, planted=planted,
                                 player=player, missed_by=opponent(state.config.players, player) if player else None))
    report.sort(key=lambda entry: (entry["move"], entry["pair"]))
    return report
