"""A robot pilot: choose a legal program for one player's robots from the dealt hand (issue #16).

Beam search over registers. Stage k of every candidate is played by the real
engine (`stage.play_stage`: the phases of stage k, on the board after stage
k-1, with the register sequences fixed at the turn's start as `resolve_turn`
has them), so no rule is copied here; each robot's card for the stage is chosen
in turn, and the beam keeps the `width` cheapest boards by `goals.player_cost`.
The best finished candidates are played on to the end of the turn (the stages
that fused registers add past the program) and the cheapest wins. The program
is checked by `orders.check_programs`, the same check a player's file goes
through.

Deterministic: ties break by candidate order, the budget counts simulated stages
(never the clock); a caller may pass `stop` (say, a deadline) to cut it shorter.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping, NamedTuple, Sequence

from .cards import Card
from .deal import can_use, free_registers
from .goals import player_cost
from .orders import Checked, Submission, check_programs
from .ruleset import Ruleset
from .stage import play_stage
from .state import Board
from .turn import last_stage, register_sequence, register_sequences

WIDTH = 4          # boards kept per register
BUDGET = 700       # simulated stages per plan
FINALISTS = 4      # finished candidates played on to the end of the turn
REBOOT_FREE = 2    # declare a reboot (B10) when no more free registers than this are left


@dataclass(frozen=True)
class Plan:
    programs: dict[str, list[Card]]
    reboot: list[str]
    cost: float
    simulated: int  # stages simulated
    checked: Checked = field(repr=False)  # the programs as the orders check takes them

    def submission(self) -> Submission:
        """The plan as a player's submission (cards as `KIND#NUMBER`)."""
        return Submission({name: [str(card) for card in cards] for name, cards in self.programs.items()},
                          list(self.reboot))


@dataclass
class _Node:
    programs: tuple[tuple[Card, ...], ...]  # one per receiving robot
    used: frozenset[Card]
    base: Board   # after the last complete stage
    board: Board  # after the cards chosen so far
    cost: float


class _Done(NamedTuple):
    """A candidate of legal length: its programs and the board after its `played` stages."""
    cost: float
    order: int
    programs: tuple[tuple[Card, ...], ...]
    board: Board
    played: int


class _Search:
    def __init__(self, board: Board, player: Sequence[str], receiving: Sequence[str],
                 hands: Mapping[str, list[Card]], ruleset: Ruleset, shared_hand: str | None,
                 seed: int | str, turn: int, budget: int, stop: Callable[[], bool] | None):
        self.board, self.player, self.receiving, self.ruleset = board, list(player), list(receiving), ruleset
        self.hands = [hands.get(shared_hand or name, []) for name in receiving]
        self.seed, self.turn, self.budget, self.stop = seed, turn, budget, stop
        self.simulated = 0
        self.idle = register_sequences(board, {}, ruleset)
        free = [free_registers(board.robots[name], ruleset) for name in receiving]
        self.fill = ruleset.fill_free_registers
        self.limits = free if self.fill or not ruleset.equal_length_programs else [min(free)] * len(free)

    def out_of_budget(self) -> bool:
        return self.simulated >= self.budget or (self.stop is not None and self.stop())

    def cost(self, board: Board) -> float:
        return player_cost(board, self.player, self.ruleset)

    def sequences(self, programs: Sequence[Sequence[Card]]) -> dict[str, list[Card | None]]:
        """Every robot's register sequence, fixed on the turn's first board (the others' worked out once)."""
        named = dict(zip(self.receiving, programs))
        return {name: register_sequence(self.board.robots[name], named[name], self.ruleset) if name in named
                else sequence for name, sequence in self.idle.items()}

    def play(self, base: Board, programs: Sequence[Sequence[Card]], stage: int) -> Board:
        self.simulated += 1
        return play_stage(base, self.sequences(programs), self.ruleset, seed=self.seed, turn=self.turn, stage=stage)

    def whole_turn(self, done: _Done) -> float:
        """The cost at the end of the turn (before its end-of-turn steps): the stages past the program that
        fused registers run (B7.3) are played on from the candidate's board."""
        sequences, board = self.sequences(done.programs), done.board
        for stage in range(done.played + 1, last_stage(sequences) + 1):
            board = play_stage(board, sequences, self.ruleset, seed=self.seed, turn=self.turn, stage=stage)
        return self.cost(board)

    def choices(self, node: _Node, index: int) -> list[Card]:
        """One card per kind the robot may still play (the highest-numbered, acting first), weakest kind first;
        a robot that no longer plays gets one filler card."""
        robot = node.base.robots[self.receiving[index]]
        usable = [c for c in self.hands[index] if c not in node.used and can_use(robot, c, self.ruleset)]
        if not robot.runs_program:
            return usable[:1]
        best: dict[str, Card] = {}
        for card in usable:
            if card.kind not in best or card.number > best[card.kind].number:
                best[card.kind] = card
        return sorted(best.values())

    def finished(self, length: int) -> bool:
        """A legal length for every robot's program (B4.5)."""
        if self.fill:
            return length == max(self.limits, default=0)
        return length <= min(self.limits, default=0)

    def run(self) -> tuple[list[_Done], _Node]:
        start = _Node(tuple(() for _ in self.receiving), frozenset(), self.board, self.board, self.cost(self.board))
        beam, done = [start], [_Done(start.cost, 0, start.programs, start.board, 0)] if self.finished(0) else []
        for stage in range(1, max(self.limits, default=0) + 1):
            for index in range(len(self.receiving)):
                if self.limits[index] < stage:
                    continue
                beam = self.expand(beam, index, stage)
                if self.out_of_budget() or not beam:
                    return done, (beam or [start])[0]
            if self.finished(stage):
                done += [_Done(n.cost, len(done) + i, n.programs, n.board, stage) for i, n in enumerate(beam)]
        return done, beam[0]

    def expand(self, beam: list[_Node], index: int, stage: int) -> list[_Node]:
        last = index == max(i for i, limit in enumerate(self.limits) if limit >= stage)
        children: dict[_Signature, _Node] = {}
        for node in beam:
            for card in self.choices(node, index):
                programs = tuple(p + (card,) if i == index else p for i, p in enumerate(node.programs))
                board = self.play(node.base, programs, stage)
                child = _Node(programs, node.used | {card}, node.base, board, self.cost(board))
                key = _signature(board)
                if key not in children or child.cost < children[key].cost:
                    children[key] = child
                if self.out_of_budget():
                    break
            if self.out_of_budget():
                break
        ranked = sorted(children.values(), key=lambda n: n.cost)[:WIDTH]
        if last:
            ranked = [_Node(n.programs, n.used, n.board, n.board, n.cost) for n in ranked]
        return ranked


_Signature = tuple[tuple[tuple[object, ...], ...], tuple[tuple[str, str], ...]]  # the robots, the element states


def _signature(board: Board) -> _Signature:
    robots = tuple((r.name, r.at, r.facing, r.hp, r.mode, r.left_room, tuple(r.options))
                   for r in board.robots.values())
    return robots, tuple(sorted(board.elements.items()))


def plan(board: Board, player: Sequence[str], receiving: Sequence[str], hands: Mapping[str, list[Card]],
         ruleset: Ruleset, *, seed: int | str, turn: int, shared_hand: str | None = None, budget: int = BUDGET,
         stop: Callable[[], bool] | None = None) -> Plan:
    """A legal program for `player`'s robots (robot names in robot order; `receiving` those dealt cards) from
    `hands`, keyed as `check_programs` wants them (robot name, or `shared_hand` for one shared hand)."""
    search = _Search(board, player, receiving, hands, ruleset, shared_hand, seed, turn, budget, stop)
    done, best = search.run()
    if not done:  # out of budget before a legal length (B4.5 fill): finish the best node from the hand
        done = [_Done(best.cost, 0, _filled(search, best), board, 0)]
    finalists = sorted(done, key=lambda item: (item.cost, item.order))[:FINALISTS]
    cost, _, programs = min((search.whole_turn(item), item.order, item.programs) for item in finalists)
    chosen = {name: list(cards) for name, cards in zip(receiving, programs)}
    reboot = [name for name in player if _wants_reboot(board, name, ruleset)]
    submission = Submission({name: [str(c) for c in cards] for name, cards in chosen.items()}, reboot)
    checked = check_programs(submission, [board.robots[n] for n in player], list(receiving), dict(hands),
                             ruleset, shared_hand=shared_hand)
    return Plan(chosen, reboot, cost, search.simulated, checked)


def _filled(search: _Search, node: _Node) -> tuple[tuple[Card, ...], ...]:
    programs, used = [list(p) for p in node.programs], set(node.used)
    for index, limit in enumerate(search.limits):
        robot = search.board.robots[search.receiving[index]]
        for card in search.hands[index]:
            if len(programs[index]) >= limit:
                break
            if card not in used and can_use(robot, card, search.ruleset):
                programs[index].append(card)
                used.add(card)
    return tuple(tuple(p) for p in programs)


def _wants_reboot(board: Board, name: str, ruleset: Ruleset) -> bool:
    """B10: a robot on the board with few free registers left reboots next turn to come back at full HP."""
    robot = board.robots[name]
    return robot.runs_program and free_registers(robot, ruleset) <= REBOOT_FREE
