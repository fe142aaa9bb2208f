"""Checking a player's programs against the dealt hand (RULES B4.4–B4.7, B10, B11).

Pure: it gets the robots, the hand and the raw program tokens, and returns the
normalised programs with every problem found, each naming the field it is about
as a path (`("robots", "Zapper", "program", 2)`) so the file layer can add lines.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import combinations
from typing import Iterator, Mapping, Sequence

from .cards import KINDS, Card
from .deal import can_use, free_registers
from .ruleset import Ruleset
from .state import Robot

_TOKEN = re.compile(r"^(?:([A-Z0-9]{4})#)?(\d{1,18})$|^([A-Z0-9]{4})$")


_RegisterPath = tuple[str, str, str, int]  # ("robots", NAME, "program", INDEX)


@dataclass(frozen=True)
class OrderProblem:
    path: tuple[str | int, ...]  # ("robots", NAME, "program", INDEX), ("reboot", INDEX), ("option_hp",)
    message: str


@dataclass
class Checked:
    """A submission after checking: programs as cards (robot order), reboots, option HP and the problems."""

    programs: dict[str, list[Card]] = field(default_factory=dict)
    reboot: list[str] = field(default_factory=list)
    option_hp: int | None = None
    problems: list[OrderProblem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class Submission:
    """What a player sent, still as text: robot -> card tokens, in the order given."""

    programs: Mapping[str, Sequence[object]]  # card tokens as read: KIND, NUMBER or KIND#NUMBER (unchecked)
    reboot: list[str] = field(default_factory=list)
    option_hp: int | None = None


def check_programs(submission: Submission, robots: list[Robot], receiving: list[str],
                   hands: dict[str, list[Card]], ruleset: Ruleset, *, shared_hand: str | None = None,
                   why_no_cards: Mapping[str, str] | None = None) -> Checked:
    """Validate one player's submission.

    `robots` are the player's robots in robot order; `receiving` those dealt cards
    this turn; `hands` maps each receiving robot (or, for a shared hand, the key
    `shared_hand`) to its cards in hand order; `why_no_cards`, why each other robot
    gets none, in a player's words (`GameState.no_cards_reason`).
    """
    checked = Checked(option_hp=submission.option_hp)
    problems = checked.problems
    own = {robot.name: robot for robot in robots}
    for name in submission.programs:
        if name not in own:
            problems.append(OrderProblem(("robots", name), f"not one of your robots ({', '.join(own)})"))
        elif name not in receiving and submission.programs[name]:
            why = (why_no_cards or {}).get(name)
            problems.append(OrderProblem(("robots", name, "program"), f"{name} gets no cards this turn"
                                         f"{f' — {why}' if why else ''}. Leave its program empty"))
    claimed: dict[Card, _RegisterPath] = {}
    resolved: dict[str, list[Card | None]] = {}
    pending: list[tuple[str, int, str]] = []
    for robot in robots:
        if robot.name not in receiving:
            continue
        hand = hands.get(shared_hand or robot.name, [])
        tokens = list(submission.programs.get(robot.name) or [])
        resolved[robot.name] = [None] * len(tokens)
        for index, token in enumerate(tokens):
            path = ("robots", robot.name, "program", index)
            kind, number, message = _parse_token(token)
            if message:
                problems.append(OrderProblem(path, message))
            elif number is None:
                assert kind is not None  # a token is a kind, a number or both
                pending.append((robot.name, index, kind))
            else:
                card = next((c for c in hand if c.number == number), None)
                if card is None:
                    problems.append(OrderProblem(path, f"card {number} is not in your hand"))
                elif kind and card.kind != kind:
                    problems.append(OrderProblem(path, f"card {number} is {card}, not {kind}"))
                elif card in claimed:
                    problems.append(OrderProblem(path, f"{card} is already used at {_where(claimed[card])}"))
                else:
                    claimed[card] = path
                    resolved[robot.name][index] = card
    for name, index, kind in pending:  # B4.4: a bare kind takes the first unused card of that kind
        hand = hands.get(shared_hand or name, [])
        card = next((c for c in hand if c.kind == kind and c not in claimed), None)
        path = ("robots", name, "program", index)
        if card is None:
            have = sum(1 for c in hand if c.kind == kind)
            problems.append(OrderProblem(path, f"no {kind} left in your hand ({have} dealt)"))
        else:
            claimed[card] = path
            resolved[name][index] = card
    for robot in robots:
        cards = resolved.get(robot.name)
        if cards is None:
            continue
        for index, card in enumerate(cards):
            if card is not None and not can_use(robot, card, ruleset):
                problems.append(OrderProblem(("robots", robot.name, "program", index),
                                             f"{robot.name} cannot use {card} yet: it needs the {card.card_set} "
                                             f"upgrade from computers in {ruleset.upgrade_rooms} rooms (G7)"))
        _check_length(robot, len(cards), ruleset, problems)
    _check_equal_lengths(robots, receiving, resolved, ruleset, problems)
    checked.reboot = _check_reboot(submission.reboot, own, problems)
    _check_option_hp(submission.option_hp, ruleset, problems)
    if not problems:
        checked.programs = {name: [card for card in cards if card is not None] for name, cards in resolved.items()}
    return checked


def _parse_token(token: object) -> tuple[str | None, int | None, str | None]:
    """(kind, number, problem) for `FWD2`, `540` or `FWD1#500`."""
    if isinstance(token, bool) or not isinstance(token, (int, str)):
        return None, None, f"not a card: {token!r} (write KIND, NUMBER or KIND#NUMBER)"
    match = _TOKEN.match(str(token).strip().upper())
    if not match:
        return None, None, f"not a card: {token!r} (write KIND, NUMBER or KIND#NUMBER)"
    kind = match[1] or match[3]
    if kind and kind not in KINDS:
        return None, None, f"unknown card kind {kind} (one of {', '.join(KINDS)})"
    return kind, int(match[2]) if match[2] else None, None


def _check_length(robot: Robot, length: int, ruleset: Ruleset, problems: list[OrderProblem]) -> None:
    free = free_registers(robot, ruleset)
    path = ("robots", robot.name, "program")
    if length > free:
        problems.append(OrderProblem(path, f"{length} cards but {robot.name} has {free} free registers (B4.5)"))
    elif ruleset.fill_free_registers and length != free:
        problems.append(OrderProblem(path, f"{robot.name} must fill all {free} free registers, got {length} cards (B4.5)"))


def _check_equal_lengths(robots: list[Robot], receiving: list[str], resolved: dict[str, list[Card | None]],
                         ruleset: Ruleset, problems: list[OrderProblem]) -> None:
    """B4.5 (Geek-o): programs of equal length when every robot gets cards (one whose every register is fused
    gets none, B4.7)."""
    programmed = {robot.name for robot in robots if free_registers(robot, ruleset) > 0}
    resolved = {name: cards for name, cards in resolved.items() if name in programmed}
    if not ruleset.equal_length_programs or len(resolved) < 2 or len(resolved) < len(robots):
        return
    lengths = {name: len(cards) for name, cards in resolved.items()}
    if len(set(lengths.values())) > 1:
        first = next(iter(lengths))
        for name, length in lengths.items():
            if length != lengths[first]:
                problems.append(OrderProblem(("robots", name, "program"),
                                             f"{length} cards but {first} has {lengths[first]}: both programs "
                                             "must have the same length (B4.5)"))


def _check_reboot(names: list[str] | None, own: dict[str, Robot], problems: list[OrderProblem]) -> list[str]:
    seen: list[str] = []
    for index, name in enumerate(names or []):
        if name not in own:
            problems.append(OrderProblem(("reboot", index), f"not one of your robots: {name!r}"))
        elif name in seen:
            problems.append(OrderProblem(("reboot", index), f"{name} is listed twice"))
        else:
            seen.append(name)
    return [name for name in own if name in seen]


def _check_option_hp(option_hp: object, ruleset: Ruleset, problems: list[OrderProblem]) -> None:
    if option_hp is None:
        return
    if not ruleset.options_absorb_damage:
        problems.append(OrderProblem(("option_hp",), "options cannot be given up to cancel damage in this ruleset (B11)"))
    elif isinstance(option_hp, bool) or not isinstance(option_hp, int) or not 1 <= option_hp <= ruleset.max_hp:
        problems.append(OrderProblem(("option_hp",), f"must be a whole number from 1 to {ruleset.max_hp}"))


def _where(path: _RegisterPath) -> str:
    return f"{path[1]}'s register {path[3] + 1}"


def example_programs(robots: list[Robot], receiving: list[str], hands: dict[str, list[Card]], ruleset: Ruleset, *,
                     shared_hand: str | None = None,
                     written: Mapping[str, Sequence[object]] | None = None) -> dict[str, list[Card]]:
    """A legal program per receiving robot from its hand (B4.4–B4.5, G7): what an acknowledgement shows a
    player as a right line. It keeps as many of the programs the player has `written` as a legal whole allows
    and fills the others in hand order: every free register (BotWars), or all of one length (Geek-o), the
    kept programs' or the longest the hand allows. Each candidate is judged by `check_programs` itself, so a
    hint is never refused; {} when no legal whole is found."""
    takers = [robot for robot in robots if robot.name in receiving]
    sent: dict[str, list[object]] = {name: list(tokens) for name, tokens in (written or {}).items() if tokens}
    kept = [robot.name for robot in takers if robot.name in sent]
    for size in range(len(kept), -1, -1):
        for keep in combinations(kept, size):
            for programs in _candidates({name: sent[name] for name in keep}, takers, hands, ruleset, shared_hand):
                checked = check_programs(Submission(programs), robots, receiving, hands, ruleset,
                                         shared_hand=shared_hand)
                if checked.ok and any(checked.programs.values()):
                    return checked.programs
    return {}


def _candidates(kept: dict[str, list[object]], takers: list[Robot], hands: dict[str, list[Card]], ruleset: Ruleset,
                shared_hand: str | None) -> Iterator[dict[str, list[object]]]:
    """`kept` with a program for every other taker, from the cards the kept ones leave in hand order: as
    many cards as each has free registers, or, under equal lengths, the kept length or every length from the
    shortest robot's free registers down."""
    free = {robot.name: free_registers(robot, ruleset) for robot in takers}
    if not ruleset.equal_length_programs or ruleset.fill_free_registers:
        yield _filled(kept, takers, hands, ruleset, shared_hand, free)
        return
    programmed = [n for n in free.values() if n > 0]
    lengths = [len(next(iter(kept.values())))] if kept else range(min(programmed, default=0), 0, -1)
    for length in lengths:
        yield _filled(kept, takers, hands, ruleset, shared_hand, {name: min(n, length) for name, n in free.items()})


def _filled(kept: dict[str, list[object]], takers: list[Robot], hands: dict[str, list[Card]], ruleset: Ruleset,
            shared_hand: str | None, lengths: dict[str, int]) -> dict[str, list[object]]:
    claimed = _claimed(kept, takers, hands, shared_hand)
    filled = dict(kept)
    for robot in takers:
        if robot.name in filled:
            continue
        usable = [card for card in hands.get(shared_hand or robot.name, [])
                  if card not in claimed and can_use(robot, card, ruleset)][:lengths[robot.name]]
        filled[robot.name] = [str(card) for card in usable]
        claimed.update(usable)
    return filled


def _claimed(kept: dict[str, list[object]], takers: list[Robot], hands: dict[str, list[Card]],
             shared_hand: str | None) -> set[Card]:
    """The cards the kept programs take, numbered ones first and then a bare kind's first free card (B4.4), as
    `check_programs` resolves them."""
    claimed: set[Card] = set()
    bare: list[tuple[str, str]] = []
    for robot in takers:
        hand = hands.get(shared_hand or robot.name, [])
        for token in kept.get(robot.name, ()):
            kind, number, problem = _parse_token(token)
            if problem is None and number is not None:
                claimed.update(card for card in hand if card.number == number)
            elif problem is None and kind is not None:
                bare.append((robot.name, kind))
    for name, kind in bare:
        free = next((card for card in hands.get(shared_hand or name, []) if card.kind == kind and card not in claimed),
                    None)
        if free is not None:
            claimed.add(free)
    return claimed


def to_change(examples: dict[str, list[Card]], written: Mapping[str, Sequence[object]], robots: list[Robot],
              receiving: list[str], hands: dict[str, list[Card]], ruleset: Ruleset, *,
              shared_hand: str | None = None) -> list[str]:
    """The robots whose `written` program an `examples` whole replaces: the others the player keeps as they
    wrote them, and with the examples they are legal (checked; a line that differs drops out, round by round)."""
    ours = {name: [str(card) for card in cards] for name, cards in examples.items()}
    kept = {name: list(tokens) for name, tokens in written.items() if name in ours and tokens}
    while kept:
        checked = check_programs(Submission({**ours, **kept}), robots, receiving, hands, ruleset,
                                 shared_hand=shared_hand)
        if checked.ok and all(checked.programs[name] == examples[name] for name in kept):
            break
        wrong = {p.path[1] for p in checked.problems if p.path[0] == "robots" and len(p.path) > 1}
        differ = {name for name in kept if checked.ok and checked.programs[name] != examples[name]}
        kept = {name: tokens for name, tokens in kept.items() if name not in wrong | differ} \
            if wrong | differ else {}
    return [name for name in ours if name not in kept]
