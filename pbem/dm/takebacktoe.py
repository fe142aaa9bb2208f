"""Take-Back-Toe (RULES D3): roll a die, move exactly that many pieces, build three equal stacks at home.

Options: `dice: engine | gm` (engine: the seeded RNG rolls before each turn
and a turn whose roll allows no move is skipped at once; gm: the GM enters
each roll, as its own action `{roll: 4}` from player `GM` (by mail) or
written in the mover's action (a transcript; one whose actions carry rolls is
a game with the GM's dice unless it says `dice: engine`); a roll that allows
no move skips the turn; the mover's turn and clock start at the GM's roll, D5 ruling),
`both_win: mover | opponent` (D3.3 ruling), `turns: 40` (D3.4, per player),
`clock` (D5; default 1 minute a move and a 5-minute bank, seed 001).
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from ..engine.rng import derive_rng
from ..engine.vocabulary import Termination
from . import clock as clocks
from .base import Action, Config, Option, Result, Setup, opponent
from .cells import cell_name, neighbours, parse_cell
from .turngame import TurnGame
from .views import TakeBackToeView

ROWS, COLS = 3, 4
HOME_ROWS = (0, 2)  # first player: row A; second: row C
DEFAULT_CLOCK = clocks.TimeControl(turn=60, reserve=300, step=1)
OPTIONS = {
    "dice": Option("engine", ("engine", "gm"), about="who rolls: the engine (seeded), or the GM (pbem dm roll)"),
    "both_win": Option("mover", ("mover", "opponent"), about="D3.3 ruling: who wins when both qualify at once"),
    "turns": Option(40, whole=True, unit="turns", about="D3.4: turns per player before the home pieces decide"),
    "clock": Option(DEFAULT_CLOCK, read=lambda value, default: clocks.TimeControl.from_options({"clock": value}, default),
                    unit="seconds", shown_default="{turn: 60, reserve: 300, step: 1}",
                    about=clocks.CLOCK_ABOUT),
    "start": clocks.START,
}


@dataclass(frozen=True)
class Settings:
    """The match's options, read once when it is set up."""

    dice: str
    both_win: str
    turns: int
    clock: clocks.TimeControl
    start: datetime | None = None


_MOVE = re.compile(r"^\s*(\w+)\s*(?:-|->|→|\s)\s*(\w+)\s*$")


@dataclass(frozen=True)
class Turn:
    """One turn taken: the roll and the move (None when the turn was skipped)."""

    player: str
    roll: int
    move: tuple[int, int] | None


@dataclass(frozen=True)
class State:
    config: Config
    settings: Settings
    stacks: tuple[int, ...]
    turns: tuple[Turn, ...] = ()
    roll: int | None = None  # engine dice: the roll the player to move must use
    winner: str | None = None
    ending: str = ""
    termination: Termination | None = None
    clock: clocks.Clock | None = None
    written: bool = False  # the last turn's roll was written in the mover's own action (rolled elsewhere, D5)

    @property
    def players(self) -> tuple[str, str]:
        return self.config.players  # type: ignore[return-value]

    @property
    def to_move(self) -> str:
        return self.players[len(self.turns) % 2]

    @property
    def over(self) -> bool:
        return self.winner is not None


def home_pieces(stacks: tuple[int, ...], row: int) -> int:
    return sum(stacks[row * COLS:(row + 1) * COLS])


def three_equal(stacks: tuple[int, ...], row: int) -> bool:
    """D3.3: three or more equal non-empty stacks in the row."""
    counts = Counter(s for s in stacks[row * COLS:(row + 1) * COLS] if s > 0)
    return any(n >= 3 for n in counts.values())


def can_move(stacks: tuple[int, ...], roll: int) -> bool:
    return any(s >= roll for s in stacks)


class TakeBackToe(TurnGame[State]):
    name = "takebacktoe"
    title = "Take-Back-Toe"
    options = OPTIONS

    def new_state(self, config: Config) -> State:
        setup = Setup(config, OPTIONS)
        setup.two_players("Take-Back-Toe")
        setup.no_variant("Take-Back-Toe")
        settings = Settings(**setup.read(OPTIONS))
        setup.done()
        stacks = (0,) * COLS + (10,) * COLS + (0,) * COLS
        state = State(config, settings, stacks, clock=clocks.start(settings.clock, config.players, settings.start))
        return self._next_roll(state)

    def candidates(self, state: State) -> list[Action]:
        if state.roll is None:
            return [Action(clocks.GM, {"roll": n}) for n in range(1, 7)]
        return [Action(state.to_move, {"move": f"{cell_name(source, COLS)}-{cell_name(target, COLS)}"})
                for source in range(ROWS * COLS) for target in neighbours(source, ROWS, COLS)]

    def hints(self, state: State, player: str) -> list[str]:
        if state.over or player != state.to_move:
            return []
        if state.roll is None:
            return []  # the GM rolls first (pbem dm roll); that mail asks for the move (`waiting`)
        move = next((a.payload["move"] for a in self.candidates(state) if self.check_move(state, a) is None), "B2-A2")
        pieces = "1 piece" if state.roll == 1 else f"{state.roll} pieces"
        return [f"{{move: {move}}}  move exactly {pieces} from a stack of at least {state.roll} "
                "to the next cell (any such move: FROM-TO)"]

    def news(self, before: State, after: State) -> list[str]:
        lines = []
        for turn in after.turns[len(before.turns):]:
            if turn.move is None:
                lines.append(f"{turn.player} rolled {turn.roll}: no stack of {turn.roll}, the turn is skipped")
            else:
                lines.append(f"{turn.player} moved {turn.roll} {'-'.join(cell_name(c, COLS) for c in turn.move)}")
        return lines + ([f"{after.winner} wins: {after.ending}"] if after.over and not before.over else [])

    def rules_text(self, state: State) -> str:
        s = state.settings
        dice = ("The GM rolls a die for each turn (the turn and its clock start at the roll)" if s.dice == "gm"
                else "Each turn starts with a die rolled for you")
        first, second = state.players
        return (f"Take-Back-Toe (RULES D3): 40 pieces on a 3x4 board, rows A-C; {first}'s home row is A, "
                f"{second}'s is C. {dice}; with n you move exactly n pieces from a stack of at least n to an "
                "orthogonally next cell, but never straight back along the opponent's last move; no stack of n: "
                "the turn is skipped. Three or more equal stacks in your home row win at once; after "
                f"{s.turns} turns each, more pieces at home wins (a tie: {first}). {clocks.control_text(s.clock)}")

    def waiting(self, state: State, player: str) -> str | None:
        if not state.over and player == state.to_move and state.roll is None and state.settings.dice == "gm":
            return "waiting for the GM's roll: your turn, and your clock, start when it comes"
        return None

    def transcript_options(self, options: dict[str, Any], actions: list[Action]) -> dict[str, Any]:
        if "dice" in options or not any("roll" in action.payload for action in actions):
            return options
        return {**options, "dice": "gm"}

    def check(self, state: State, action: Action) -> str | None:
        if action.player == clocks.GM and set(action.payload) == {"roll"}:
            return self._check_gm_roll(state, action.payload["roll"])
        return super().check(state, action)

    def apply(self, state: State, action: Action) -> State:
        if action.player == clocks.GM and set(action.payload) == {"roll"}:
            reason = self._check_gm_roll(state, action.payload["roll"])
            if reason is not None:
                raise ValueError(reason)
            rolled = replace(self._rolled(state, action.payload["roll"]), written=False)
            if rolled.roll is None or rolled.clock is None:  # a roll that skips the turn starts nobody's clock
                return rolled
            return replace(rolled, clock=replace(rolled.clock, started=clocks.utc(action.at), extra=0))
        return super().apply(state, action)

    def _awaiting_roll(self, state: State) -> bool:
        """With the GM's dice, the player to move has no roll yet."""
        return state.settings.dice == "gm" and state.roll is None and not state.over

    def deadline(self, state: State) -> clocks.Deadline | None:
        """With the GM's dice a turn starts when the GM's roll for it is stamped: until then no deadline runs (D5)."""
        return None if self._awaiting_roll(state) else super().deadline(state)

    def judge_clock(self, state: State, action: Action) -> tuple[str | None, State]:
        """A roll written in the mover's own action (rolled elsewhere) carries no time of its own (D5 ruling): while
        the rolls come that way, the turn awaiting one runs from the previous action, and a GM extension or a timeout
        claim acts on that deadline (the scheduled run does not: it waits for the roll)."""
        if self._awaiting_roll(state) and state.written:
            return clocks.judge_clock(self, state, action, running=super().deadline)
        return super().judge_clock(state, action)

    def _late(self, state: State, action: Action) -> bool:
        if self._awaiting_roll(state) and "roll" not in action.payload:
            return False  # a move before the roll is refused for that, never late
        return super()._late(state, action)

    def _check_gm_roll(self, state: State, roll: Any) -> str | None:
        if state.over:
            return "the game is over"
        if state.settings.dice != "gm":
            return "this match uses the engine's dice (options: {dice: engine})"
        if state.roll is not None:
            return f"{state.to_move} has rolled {state.roll} already and must move"
        if not isinstance(roll, int) or isinstance(roll, bool) or not 1 <= roll <= 6:
            return f"a roll is 1 to 6, not {roll!r}"
        return None

    def _rolled(self, state: State, roll: int) -> State:
        """The roll stands for the player to move; one that allows no move skips the turn at once (D3.2)."""
        if can_move(state.stacks, roll):
            return replace(state, roll=roll)
        return self._after_turn(state, Turn(state.to_move, roll, None), state.stacks)

    def time_control(self, state: State) -> clocks.TimeControl:
        return state.settings.clock

    def check_move(self, state: State, action: Action) -> str | None:
        payload = action.payload
        unknown = sorted(set(payload) - {"roll", "move"})
        if unknown:
            return f"unknown field {unknown[0]!r} (a turn is roll and move)"
        roll = payload.get("roll")
        if state.roll is not None:
            if roll is not None and roll != state.roll:
                who = "the engine" if state.settings.dice == "engine" else "the GM"
                return f"{who} rolled {state.roll} for this turn, not {roll!r}"
            roll = state.roll
        elif roll is None:
            return "the GM has not rolled for this turn yet (pbem dm roll MATCH N)"
        if not isinstance(roll, int) or isinstance(roll, bool) or not 1 <= roll <= 6:
            return f"a roll is 1 to 6, not {roll!r}"
        if "move" not in payload:
            if can_move(state.stacks, roll):
                return f"a roll of {roll} allows a move: name it (like B2-A2)"
            return None
        try:
            source, target = parse_move(payload["move"])
        except ValueError as err:
            return str(err)
        if target not in neighbours(source, ROWS, COLS):
            return f"{cell_name(target, COLS)} is not next to {cell_name(source, COLS)}"
        if state.stacks[source] < roll:
            return f"{cell_name(source, COLS)} holds {state.stacks[source]}, fewer than {roll}"
        last = state.turns[-1] if state.turns else None
        if last is not None and last.move == (target, source) and last.roll == roll:
            return (f"{roll} {cell_name(source, COLS)}-{cell_name(target, COLS)} reverses "
                    f"{last.player}'s move (D3.2)")
        return None

    def apply_move(self, state: State, action: Action) -> State:
        roll = state.roll if state.roll is not None else action.payload["roll"]
        move = parse_move(action.payload["move"]) if "move" in action.payload else None
        stacks = list(state.stacks)
        if move is not None:
            stacks[move[0]] -= roll
            stacks[move[1]] += roll
        after = self._after_turn(state, Turn(action.player, roll, move), tuple(stacks))
        return replace(after, written=state.roll is None)

    def lose_on_time(self, state: State, player: str) -> State:
        other = opponent(state.players, player)
        return replace(state, winner=other, ending=f"{player} ran out of time", termination=Termination.OUT_OF_TIME)

    def _after_turn(self, state: State, turn: Turn, stacks: tuple[int, ...]) -> State:
        """D3.3 win check after every turn, then the D3.4 limit, then the next roll."""
        state = replace(state, stacks=stacks, turns=state.turns + (turn,), roll=None)
        mover, other = turn.player, opponent(state.players, turn.player)
        qualified = [p for p in (mover, other) if three_equal(stacks, self._home(state, p))]
        if len(qualified) == 2:
            both_win = state.settings.both_win
            winner = mover if both_win == "mover" else other
            return replace(state, winner=winner, ending="both have three equal stacks (D3.3 ruling)",
                           termination=Termination.THREE_STACKS)
        if qualified:
            return replace(state, winner=qualified[0], ending="three equal stacks at home",
                           termination=Termination.THREE_STACKS)
        if len(state.turns) >= 2 * state.settings.turns:
            first, second = state.players
            pieces = {p: home_pieces(stacks, self._home(state, p)) for p in state.players}
            winner = second if pieces[second] > pieces[first] else first
            how = "tie goes to the starting player" if pieces[first] == pieces[second] else "more pieces at home"
            return replace(state, winner=winner, ending=f"turn limit: {how}", termination=Termination.TURN_LIMIT)
        return self._next_roll(state)

    def _next_roll(self, state: State) -> State:
        """Engine dice: roll for the player to move; skip the turn at once when no stack is big enough."""
        if state.settings.dice != "engine":
            return state
        turn_number = len(state.turns) + 1
        return self._rolled(state, derive_rng(state.config.seed, turn_number, 0, "die", state.to_move).randint(1, 6))

    def is_over(self, state: State) -> bool:
        return state.over

    def result(self, state: State) -> Result:
        scores = {p: home_pieces(state.stacks, self._home(state, p)) for p in state.players}
        return Result(state.over, state.winner, scores=scores, termination=state.termination)

    def render_data(self, state: State) -> TakeBackToeView:
        last = state.turns[-1] if state.turns else None
        return {
            "game": self.name,
            "rows": [[state.stacks[r * COLS + c] for c in range(COLS)] for r in range(ROWS)],
            "homes": {"A": state.players[0], "C": state.players[1]},
            "to_move": None if state.over else state.to_move,
            "roll": state.roll,
            "turns": {p: sum(1 for t in state.turns if t.player == p) for p in state.players},
            "turn_limit": state.settings.turns,
            "clock": self.clock_data(state),
            "last": None if last is None else {
                "player": last.player,
                "roll": last.roll,
                "move": None if last.move is None else [cell_name(c, COLS) for c in last.move],
            },
            "skipped": [{"player": t.player, "roll": t.roll} for t in _recent(state) if t.move is None],
            "winner": state.winner,
            "ending": state.ending,
        }

    @staticmethod
    def _home(state: State, player: str) -> int:
        return HOME_ROWS[state.players.index(player)]


def _recent(state: State) -> tuple[Turn, ...]:
    """The turns since the player to move last moved (skipped turns included): what they have not seen yet."""
    mover = None if state.over else state.to_move
    for index in range(len(state.turns) - 1, -1, -1):
        if state.turns[index].player == mover and state.turns[index].move is not None:
            return state.turns[index + 1:]
    return state.turns


def parse_move(text: object) -> tuple[int, int]:
    """`B2-A2` → (source, target) cell indices."""
    match = _MOVE.match(str(text))
    if not match:
        raise ValueError(f"a move is FROM-TO like B2-A2, not {text!r}")
    return parse_cell(match.group(1), ROWS, COLS), parse_cell(match.group(2), ROWS, COLS)
