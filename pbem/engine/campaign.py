"""The game above the board: a whole campaign turn (RULES B4, B10, B12, G1–G5).

A Geek-o game gives every player their own board, the current one of five
rooms, walked through in order (G3); a BotWars game has one shared board. A
turn resolves every board with `resolve_turn` — its end-of-turn steps (B12:
repairs, reinstatement, reboots) with the campaign's own reinstatement for
Geek-o (G5: room 1, then turns in transit) — and then takes the steps above
the board: room exits and completion records (G3, G4), the next room, the
winner, and the deal of the next hands (B4.1–B4.3, B7.2). Pure: `play_turn`
returns a new state and never changes its input.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Mapping, Sequence

from .cards import Card
from .context import TurnContext
from .deal import Dealt, Deck, can_use, deal_preset, deal_shuffled, free_registers
from .elements import new_board
from .end_of_turn import EndStep, end_of_turn_steps, put_back
from .events import Event, RegisterFilled
from .geometry import Dir
from .orders import Checked, Submission, check_programs, example_programs, to_change
from .rng import derive_rng
from .room import Room
from .ruleset import Ruleset, get_ruleset
from .state import Board, Robot
from .turn import Snapshot, receives_cards, resolve_turn
from .vocabulary import DeckOrder, MissingOrders, Mode, PhaseName, Termination

SHARED_BOARD = "board"  # the key of the one BotWars board
Standing = dict[str, Any]  # a player's row of `standings`: player, place, and turns/rooms_done or flags/lives/won


@dataclass(frozen=True)
class PlayerSetup:
    name: str
    robots: tuple[str, ...]


@dataclass(frozen=True)
class GameSetup:
    """What a game is made of; it never changes during play."""

    name: str
    ruleset: str
    seed: str
    rooms: tuple[Room, ...]  # geeko: the rooms in order; botwars: the one board
    deck: Deck
    players: tuple[PlayerSetup, ...]
    ruleset_options: Mapping[str, Any] = field(default_factory=dict)

    @cached_property
    def _rules(self) -> Ruleset:
        return get_ruleset(self.ruleset, self.ruleset_options)

    def rules(self) -> Ruleset:
        return self._rules


@dataclass
class PlayerState:
    name: str
    robots: list[str]
    room: int = 1  # geeko: the room being played (1-based); rooms + 1 once through the last one
    cursor: int = 0  # geeko: the player's place in the pre-set deck
    finished: int | None = None  # geeko: the turn both robots left the last room (G1)
    option_hp: int | None = None  # B11 botwars: give up an option at this HP


@dataclass
class Completion:
    """G4: a robot left a room through its gate."""

    robot: str
    room: int
    turn: int


@dataclass
class GameState:
    setup: GameSetup
    turn: int  # the turn to play next
    players: dict[str, PlayerState]
    boards: dict[str, Board]  # geeko: player -> their room; botwars: SHARED_BOARD -> the board
    hands: dict[str, list[Card]] = field(default_factory=dict)  # geeko: player -> shared hand; botwars: robot
    transit: dict[str, int] = field(default_factory=dict)  # G5: robot -> turns still in transit
    completions: list[Completion] = field(default_factory=list)  # G4
    winners: list[str] = field(default_factory=list)  # botwars: robots through the last flag, in order

    @property
    def geeko(self) -> bool:
        return self.setup.rules().shared_hand

    def board_of(self, player: str) -> Board:
        return self.boards[player] if self.geeko else self.boards[SHARED_BOARD]

    def robots_of(self, player: str) -> list[Robot]:
        board = self.board_of(player)
        return [board.robots[name] for name in self.players[player].robots]

    def receiving(self, player: str) -> list[str]:
        """The player's robots that get cards this turn (B4.1, G3, G5, B10)."""
        if self.players[player].finished is not None or self.is_over:
            return []
        rules = self.setup.rules()
        board = self.board_of(player)
        return [name for name in self.players[player].robots if receives_cards(board, name, rules)]

    def needs_program(self, player: str) -> list[str]:
        """The player's robots that get cards to program this turn: those receiving cards (B4.1) with a free
        register; a robot whose every register is fused (B7.1) gets none and needs no program (B4.7 ruling)."""
        rules = self.setup.rules()
        board = self.board_of(player)
        return [name for name in self.receiving(player) if free_registers(board.robots[name], rules) > 0]

    def owes_orders(self, player: str) -> bool:
        """Whether the turn waits for this player's orders (B4.6 plays for them when they are missing)."""
        return bool(self.needs_program(player))

    def no_cards_reason(self, robot: str) -> str:
        """Why a robot that gets no cards this turn gets none, as a player would put it (B4.1, B7.1, B10, G3,
        G5)."""
        owner = next(p for p in self.players.values() if robot in p.robots)
        if owner.finished is not None or self.is_over:
            return "the challenge is over for you"
        found = self.board_of(owner.name).robots[robot]
        if robot in self.receiving(owner.name):
            return "all registers fused (B7.1): it gets no cards and needs no program"
        if found.left_room:
            return "left the room: waits off the board for the other robot"
        if found.mode == Mode.IN_TRANSIT:
            left = self.transit.get(robot, 0)
            return f"in transit: {left} turn{'s' if left != 1 else ''} to go before it is back (G5)"
        if found.mode == Mode.REBOOTING:
            return "rebooting this turn (B10): HP restored, no cards"
        if found.mode == Mode.DESTROYED:
            return "destroyed: it comes back at the end of the turn"
        if found.at is not None and found.runs_program:
            return "locked in a gate: waits for the other robot (G3)"
        return "receives no cards this turn"

    def hands_of(self, player: str) -> dict[str, list[Card]]:
        """The player's hands, keyed as `check_programs` wants them."""
        keys = [player] if self.geeko else self.players[player].robots
        return {key: self.hands[key] for key in keys if key in self.hands}

    def expects_orders(self, player: str) -> bool:
        return bool(self.receiving(player))

    def done_playing(self, player: str) -> str | None:
        """Why a player has no more turns while the game goes on, or None: `out of lives` (BotWars, B8.2: every
        robot of theirs lost its last life) or `finished` (Geek-o, G1: both robots through the last room)."""
        if self.players[player].finished is not None:
            return "finished"
        if not self.geeko and self.setup.rules().lives is not None and all(
                robot.lives <= 0 for robot in self.robots_of(player)):
            return "out of lives"
        return None

    @property
    def is_over(self) -> bool:
        if self.geeko:
            return all(p.finished is not None for p in self.players.values())
        robots = self.boards[SHARED_BOARD].robots.values()
        out_of_lives = self.setup.rules().lives is not None and all(r.lives <= 0 for r in robots)
        return bool(self.winners) or out_of_lives


@dataclass
class TurnOutcome:
    state: GameState
    events: list[tuple[str, Event]]  # (board key, event), in order
    stages: dict[str, list[Snapshot]]  # board key -> the board at the start of each stage, then at the end
    finals: dict[str, Board] = field(default_factory=dict)  # board key -> the board the turn ended on
    # B4.6, as the turn applied it: each player who owed orders and had none that counted -> robot -> the cards
    # played for it under the game's missed-orders policy (none: it idled)
    missed: dict[str, dict[str, list[Card]]] = field(default_factory=dict)


# --- events the campaign adds --------------------------------------------------------------

@dataclass(frozen=True)
class InTransit(Event):
    """G5: a reinstated robot catches up through finished rooms; `turns` left."""

    turns: int


@dataclass(frozen=True)
class RoomCompleted(Event):
    """G4: the robot left room `room` (its number) in this turn."""

    room: int
    room_name: str


@dataclass(frozen=True)
class RoomOpened(Event):
    """G3: both robots are out; the next room opens (robot None)."""

    room: int
    room_name: str


@dataclass(frozen=True)
class PlayerFinished(Event):
    """G1: both robots left the last room; `turns` is the player's count."""

    player: str
    turns: int


@dataclass(frozen=True)
class Won(Event):
    """BotWars: the robot touched the last flag."""

    place: int


def standings(state: GameState) -> list[Standing]:
    """Places, ties sharing one. Geek-o (G1): fewest turns through all rooms, then unfinished players by
    rooms done. BotWars: the winners in the order they got through, then by flags touched and lives left."""
    if state.geeko:
        rows = [{"player": p.name, "turns": p.finished, "rooms_done": p.room - 1} for p in state.players.values()]

        def rank(row: Standing) -> tuple[int, ...]:
            return (row["turns"] is None, row["turns"] or 0, -row["rooms_done"])
    else:
        board = state.boards[SHARED_BOARD]
        rows = [{"player": p.name, "flags": board.robots[p.robots[0]].next_flag - 1,
                 "lives": board.robots[p.robots[0]].lives,
                 "won": state.winners.index(p.robots[0]) + 1 if p.robots[0] in state.winners else None}
                for p in state.players.values()]

        def rank(row: Standing) -> tuple[int, ...]:
            return (row["won"] is None, row["won"] or 0, -row["flags"], -row["lives"])
    rows.sort(key=lambda row: (rank(row), row["player"]))
    for index, row in enumerate(rows):
        row["place"] = rows[index - 1]["place"] if index and rank(rows[index - 1]) == rank(row) else index + 1
    return rows


@dataclass(frozen=True)
class GameResult:
    """How a game that is over ended: `winners`, the players placed first by `standings` (a tie shares it), and
    why it ended (`termination`: the last flag touched, every robot out of lives, or Geek-o's G1 all through)."""

    winners: tuple[str, ...]
    termination: Termination
    standings: tuple[Standing, ...]


def result(state: GameState) -> GameResult | None:
    """The result of a game that is over (None while it goes on)."""
    if not state.is_over:
        return None
    rows = standings(state)
    ending = (Termination.ALL_THROUGH if state.geeko
              else Termination.LAST_FLAG if state.winners else Termination.ALL_OUT)
    return GameResult(tuple(row["player"] for row in rows if row["place"] == 1), ending, tuple(rows))


# --- a new game --------------------------------------------------------------------------------

def new_game(setup: GameSetup, placed: Sequence[Robot] = ()) -> GameState:
    """Turn 1: robots on their start squares facing north, full HP, the first hands dealt (B7.2's fills first).
    `placed`: robots set up otherwise (a multi-turn rule scenario's: damaged, fused, moved), taken as they are."""
    rules = setup.rules()
    players = {p.name: PlayerState(p.name, list(p.robots)) for p in setup.players}
    lives = rules.lives if rules.lives is not None else 0
    if rules.shared_hand:
        boards = {p.name: _enter_room(setup.rooms[0], [Robot(n, p.name, hp=rules.max_hp, lives=lives)
                                                         for n in p.robots])
                  for p in setup.players}
    else:
        robots = [Robot(n, p.name, hp=rules.max_hp, lives=lives) for p in setup.players for n in p.robots]
        boards = {SHARED_BOARD: _enter_room(setup.rooms[0], robots, checkpoint=True)}
    for robot in placed:
        board = next(board for board in boards.values() if robot.name in board.robots)
        board.robots[robot.name] = robot.copy()
    state = GameState(setup, 1, players, boards)
    _deal(state, rules, [])
    return state


def _enter_room(room: Room, robots: list[Robot], *, checkpoint: bool = False) -> Board:
    """A fresh board of `room` with the robots on its start squares in order, facing north (G3)."""
    placed = []
    for index, robot in enumerate(robots):
        robot = robot.copy()
        robot.at, robot.facing, robot.left_room = room.starts[index % len(room.starts)], Dir.N, False
        if checkpoint:
            robot.reinstate_at = robot.at
        placed.append(robot)
    return new_board(room, placed)


# --- checking orders ------------------------------------------------------------------------

def check_orders(state: GameState, player: str, submission: Submission) -> Checked:
    """B4.4–B4.7 against the player's hand this turn."""
    rules = state.setup.rules()
    receiving = state.receiving(player)
    why = {robot: state.no_cards_reason(robot) for robot in state.players[player].robots if robot not in receiving}
    return check_programs(submission, state.robots_of(player), receiving, state.hands_of(player),
                          rules, shared_hand=player if rules.shared_hand else None, why_no_cards=why)


def example_orders(state: GameState, player: str,
                   written: Mapping[str, Sequence[object]] | None = None) -> dict[str, list[Card]]:
    """A legal program per robot of `player` from this turn's hand, keeping what they have `written` where a
    legal whole allows (see `orders.example_programs`)."""
    rules = state.setup.rules()
    return example_programs(state.robots_of(player), state.receiving(player), state.hands_of(player), rules,
                            shared_hand=player if rules.shared_hand else None, written=written)


def orders_to_change(state: GameState, player: str, examples: dict[str, list[Card]],
                     written: Mapping[str, Sequence[object]]) -> list[str]:
    """The robots of `player` whose written program `examples` replaces (see `orders.to_change`)."""
    rules = state.setup.rules()
    return to_change(examples, written, state.robots_of(player), state.receiving(player), state.hands_of(player),
                     rules, shared_hand=player if rules.shared_hand else None)


def rehearse_orders(state: GameState, player: str, checked: Checked) -> list[Snapshot]:
    """See before you send (issue #24): the player's programs played on their board as it stands, every other
    robot running no cards and every mechanism acting; the board at the start of each stage and as the stages
    end (no end-of-turn steps). The same engine as the turn; nothing is kept."""
    rules = state.setup.rules()
    board = state.board_of(player)
    programs = {name: checked.programs.get(name, []) for name in board.robots}
    result = resolve_turn(board, programs, rules, seed=state.setup.seed, turn=state.turn, end_of_turn=())
    return list(result.snapshots)


def missing_programs(state: GameState, player: str) -> dict[str, list[Card]]:
    """B4.6: `idle`: the robots idle; `fill`: registers are filled from the top of the hand; `bot`: the robot
    pilot plays them (deterministic: a replay plays the same)."""
    rules = state.setup.rules()
    if rules.missing_orders == MissingOrders.IDLE:
        return {}
    board = state.board_of(player)
    if rules.missing_orders == MissingOrders.BOT:
        from .planner import plan  # only here: a turn with every order in never loads the pilot

        return plan(board, state.players[player].robots, state.receiving(player), state.hands_of(player), rules,
                    seed=state.setup.seed, turn=state.turn,
                    shared_hand=player if rules.shared_hand else None).checked.programs
    return _filled(board, state.needs_program(player), state.hands_of(player), rules,
                   player if rules.shared_hand else None)


def _filled(board: Board, programmed: list[str], hands: dict[str, list[Card]], rules: Ruleset,
            shared_hand: str | None) -> dict[str, list[Card]]:
    """B4.6 `fill`: each robot to program, in robot order, takes the cards it can use from the top of its hand
    (a shared hand: what the robots before it left), up to its free registers; Geek-o's programs are then cut to
    one length (B4.5), the rest discarded."""
    programs: dict[str, list[Card]] = {}
    taken: set[Card] = set()
    for name in programmed:
        robot = board.robots[name]
        usable = [c for c in hands.get(shared_hand or name, []) if c not in taken and can_use(robot, c, rules)]
        programs[name] = usable[:free_registers(robot, rules)]
        taken.update(programs[name])
    if rules.equal_length_programs and len(programs) > 1:
        length = min(len(cards) for cards in programs.values())
        programs = {name: cards[:length] for name, cards in programs.items()}
    return programs


def missed_orders(state: GameState, used: Mapping[str, int | None]) -> dict[str, dict[str, list[Card]]]:
    """The players who owed orders this turn and had none that counted (`used`: player -> order version used),
    each with what B4.6 played for them (no cards at all: their robots idled): `TurnOutcome.missed` again, for a
    turn stored before the outcome recorded it."""
    return {player: missing_programs(state, player) for player in state.players
            if state.owes_orders(player) and used.get(player) is None}


# --- a turn -------------------------------------------------------------------------------------

def play_turn(state: GameState, orders: Mapping[str, Checked], seed: str | int) -> TurnOutcome:
    """Resolve every board, then the campaign's end-of-turn steps (B12). `orders`: player -> checked orders."""
    rules = state.setup.rules()
    turn = state.turn
    new = GameState(state.setup, turn + 1, {k: replace(p, robots=list(p.robots)) for k, p in state.players.items()},
                    {}, {}, dict(state.transit), list(state.completions), list(state.winners))
    programs: dict[str, list[Card]] = {}
    missed: dict[str, dict[str, list[Card]]] = {}
    reboots: set[str] = set()
    for player in new.players.values():
        checked = orders.get(player.name)
        if checked is not None and checked.ok:
            programs.update(checked.programs)
            reboots.update(checked.reboot)
            if checked.option_hp is not None:
                player.option_hp = checked.option_hp
        else:
            played = missing_programs(state, player.name)
            programs.update(played)
            if state.owes_orders(player.name):
                missed[player.name] = played
    option_hp = {name: p.option_hp if p.option_hp is not None else rules.option_hp
                 for p in new.players.values() for name in p.robots}
    events: list[tuple[str, Event]] = []
    stages: dict[str, list[Snapshot]] = {}
    finals: dict[str, Board] = {}
    for key, board in sorted(state.boards.items()):  # key order, as a reloaded state has them (see `Board`)
        if new.geeko and new.players[key].finished is not None:
            new.boards[key] = board.copy()
            continue
        steps = _geeko_end_of_turn(new, new.players[key]) if new.geeko else end_of_turn_steps()
        result = resolve_turn(board, {name: programs.get(name, []) for name in board.robots}, rules,
                              seed=seed, turn=turn, reboots=sorted(reboots & set(board.robots)),
                              option_hp=option_hp if rules.options_absorb_damage else None, end_of_turn=steps)
        new.boards[key] = finals[key] = result.board
        events += [(key, event) for event in result.events]
        stages[key] = list(result.snapshots)
    finals = {key: board.copy() for key, board in finals.items()}  # as resolved: room exits and fills follow
    if new.geeko:
        _room_exits(new, turn, events)
    else:
        _flags(new, events)
    _deal(new, rules, events)
    return TurnOutcome(new, events, stages, finals, missed)


def _geeko_end_of_turn(state: GameState, player: PlayerState) -> list[EndStep]:
    """B12 with G5: robots in transit catch up one room a turn; destroyed robots restart in room 1."""
    def catch_up(ctx: TurnContext, step: str) -> None:
        for robot in ctx.robots:
            if robot.mode == Mode.IN_TRANSIT and robot.name in state.transit:
                state.transit[robot.name] -= 1
                if state.transit[robot.name] > 0:
                    ctx.emit(InTransit(ctx.stage, robot.name, state.transit[robot.name]))
                else:
                    del state.transit[robot.name]
                    _put_on_start(ctx, robot, player)

    def reinstate(ctx: TurnContext, robot: Robot) -> None:
        behind = (player.room - 1) * ctx.ruleset.transit_turns_per_room
        if not behind:
            _put_on_start(ctx, robot, player)
            return
        before = robot.hp
        robot.mode, robot.left_room = Mode.IN_TRANSIT, False
        ctx.place(robot, None)
        robot.hp = ctx.ruleset.max_hp - ctx.ruleset.reinstate_damage
        ctx.refuse(robot, before)
        state.transit[robot.name] = behind
        ctx.emit(InTransit(ctx.stage, robot.name, behind))

    return [EndStep(PhaseName.CATCH_UP, "G5", catch_up)] + end_of_turn_steps(reinstate=reinstate)


def _put_on_start(ctx: TurnContext, robot: Robot, player: PlayerState) -> None:
    """G5: back on the room's start square in robot order (another free one if it is taken), facing north."""
    starts = list(ctx.board.room.starts)
    index = player.robots.index(robot.name) % len(starts)
    square = next((sq for sq in starts[index:] + starts[:index]
                   if all(other is robot for other in ctx.robots_at(sq))), starts[index])
    put_back(ctx, robot, square, Dir.N)


def _room_exits(state: GameState, turn: int, events: list[tuple[str, Event]]) -> None:
    """G3/G4: record robots that left their room; when all a player's robots are out, open the next room."""
    rooms = state.setup.rooms
    for player in _by_name(state.players):
        if player.finished is not None:
            continue
        board = state.boards[player.name]
        room = rooms[player.room - 1]
        done = {c.robot for c in state.completions if c.room == player.room}
        for name in player.robots:
            if board.robots[name].left_room and name not in done:
                state.completions.append(Completion(name, player.room, turn))
                events.append((player.name, RoomCompleted(0, name, player.room, room.name)))
        if all(board.robots[name].left_room for name in player.robots):
            player.room += 1
            if player.room > len(rooms):
                player.finished = turn
                events.append((player.name, PlayerFinished(0, None, player.name, turn)))
            else:
                robots = [board.robots[name] for name in player.robots]
                state.boards[player.name] = _enter_room(rooms[player.room - 1], robots)
                events.append((player.name, RoomOpened(0, None, player.room, rooms[player.room - 1].name)))


def _by_name(players: dict[str, PlayerState]) -> list[PlayerState]:
    """The players in name order, as a state read back from JSON has them: steps that add events or completions go
    in one order whether or not the state was reloaded."""
    return [players[name] for name in sorted(players)]


def _flags(state: GameState, events: list[tuple[str, Event]]) -> None:
    """BotWars: a robot past the last flag has won (places in the order they got there)."""
    board = state.boards[SHARED_BOARD]
    last = max((int(e.get("number", 0)) for e in board.room.of_type("flag")), default=0)
    for robot in sorted(board.robots.values(), key=lambda r: r.name):  # name order, as a reloaded board has them
        if last and robot.next_flag > last and robot.name not in state.winners:
            state.winners.append(robot.name)
            events.append((SHARED_BOARD, Won(0, robot.name, len(state.winners))))


def _deal(state: GameState, rules: Ruleset, events: list[tuple[str, Event]]) -> None:
    """B12's last step: fill fused empty registers and deal the hands for `state.turn`."""
    state.hands = {}
    if state.is_over:
        return
    deck = state.setup.deck
    if rules.deck_order == DeckOrder.PRESET:
        for player in _by_name(state.players):
            if player.finished is not None:
                continue
            dealt = deal_preset(deck, player.cursor, state.robots_of(player.name), state.receiving(player.name),
                                rules, player=player.name)
            player.cursor = dealt.cursor
            _apply(state, player.name, dealt, "deck", events)
    else:
        board = state.boards[SHARED_BOARD]
        receiving = [name for p in state.players for name in state.receiving(p)]
        dealt = deal_shuffled(deck, list(board.robots.values()), receiving, rules,
                              derive_rng(state.setup.seed, state.turn, 0, "deal"))
        _apply(state, SHARED_BOARD, dealt, "random", events)


def _apply(state: GameState, key: str, dealt: Dealt, source: str, events: list[tuple[str, Event]]) -> None:
    for name, fills in dealt.fills.items():
        robot = state.boards[key].robots[name]
        for number, card in sorted(fills.items()):
            robot.registers[number] = card
            events.append((key, RegisterFilled(0, name, number, card, source)))
    state.hands.update(dealt.hands)
