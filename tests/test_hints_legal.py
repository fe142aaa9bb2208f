"""Every hint a refusal offers is legal (issue #35): the right lines an acknowledgement shows, put in place of
the player's, pass the same check that refused them (RULES B4.4–B4.5, B7.1, G7), in both rulesets."""
from __future__ import annotations

import mailbox
import re

from hypothesis import given, settings
from hypothesis import strategies as st
from mail_fixtures import mail, new_campaign, orders_text
from test_mail_fetch import acks
from typer.testing import CliRunner

from pbem.cli import app
from pbem.engine.cards import BASIC_KINDS, CARD_SETS, Card
from pbem.engine.orders import Submission, check_programs, example_programs, to_change
from pbem.engine.ruleset import PRESETS
from pbem.engine.state import Robot
from pbem.formats.orders import parse_orders
from pbem.mail.ack import OrderHelp, explained

RUNNER = CliRunner()
NAMES = ("Zapper", "Spanner")
OFFERED = re.compile(r"(\w+): \{program: \[([^\]`]*)\]\}")  # a right line, read across the lines it is wrapped over
OFFERED_START = re.compile(r"\s+\w+: \{program: \[")
UPGRADES = [f"{card_set}@{room}" for card_set in CARD_SETS for room in ("Hall", "Vault")]
KINDS = [*BASIC_KINDS, *(kind for kinds in CARD_SETS.values() for kind in kinds)]


@st.composite
def positions(draw: st.DrawFn) -> tuple[str, list[Robot], list[str], dict[str, list[Card]], dict[str, list[str]]]:
    """A ruleset, the player's robots (damage fusing registers, upgrades), who receives cards, the hand(s)
    dealt and what the player wrote, mistakes included."""
    ruleset = draw(st.sampled_from(sorted(PRESETS)))
    count = 2 if ruleset == "geeko" else draw(st.integers(1, 2))
    robots = [Robot(name, owner="ann", hp=draw(st.integers(1, 10)),
                    upgrades=draw(st.lists(st.sampled_from(UPGRADES), max_size=4, unique=True)))
              for name in NAMES[:count]]
    receiving = [robot.name for robot in robots if draw(st.integers(0, 5))]  # mostly every robot
    numbers = iter(draw(st.lists(st.integers(10, 990), min_size=30, max_size=30, unique=True)))
    holders = ["ann"] if ruleset == "geeko" else list(receiving)
    hands = {holder: [Card(next(numbers), draw(st.sampled_from(KINDS))) for _ in range(draw(st.integers(0, 12)))]
             for holder in holders}
    cards = [card for hand in hands.values() for card in hand]
    token = st.one_of(st.sampled_from(cards).flatmap(lambda c: st.sampled_from([str(c), str(c.number), c.kind]))
                      if cards else st.nothing(), st.sampled_from(["999", "XYZ", "FWD1", "RVS2", "IDLE"]))
    written = {robot.name: draw(st.lists(token, max_size=10)) for robot in robots if draw(st.integers(0, 4))}
    return ruleset, robots, receiving, hands, written


def order_file(written: dict[str, list[str]]) -> str:
    lines = ["game: halls", "turn: 1", "player: ann", "robots:"]
    lines += [f"  {name}: {{program: [{', '.join(tokens)}]}}" for name, tokens in written.items()] or ["  {}"]
    return "\n".join(lines) + "\n"



def offered_hints(reply: str) -> list[str]:
    """Each right line a refusal offers, read across the lines it is wrapped over: the program lines under "A right
    line from your hand…" and "with, in place of your line for …" (not the player's own lines the reply quotes)."""
    hints: list[str] = []
    taking = False
    for line in reply.splitlines():
        if "A right line" in line:
            hints.append("")
            taking = True
        elif taking and line.strip().startswith("with, in place of"):
            continue
        elif taking and (OFFERED_START.match(line) or (hints[-1] and not hints[-1].endswith("]}"))):
            hints[-1] = f"{hints[-1]} {line.strip()}".strip()
        else:
            taking = False
    return hints

@settings(max_examples=150, deadline=None)  # ~3 s unloaded; finds the old illegal hint in its first dozen
@given(position=positions())
def test_every_line_a_refusal_offers_passes_the_check_that_refused(position):
    ruleset_name, robots, receiving, hands, written = position
    rules, shared = PRESETS[ruleset_name], "ann" if ruleset_name == "geeko" else None
    text = order_file(written)
    order = parse_orders(text, "your message")
    checked = check_programs(order.submission, robots, receiving, hands, rules, shared_hand=shared)
    if checked.ok:
        return
    examples = example_programs(robots, receiving, hands, rules, shared_hand=shared, written=order.submission.programs)
    change = to_change(examples, order.submission.programs, robots, receiving, hands, rules, shared_hand=shared)
    help = OrderHelp("halls", 1, {h: [str(c) for c in cards] for h, cards in hands.items()},
                     {name: [str(c) for c in cards] for name, cards in examples.items()}, change=tuple(change))
    reasons = [str(problem) for problem in order.problems(checked.problems)]
    hints = offered_hints("\n".join(explained(text, "your message", reasons, help)))
    if examples and any(p.path[0] == "robots" and p.path[1] in examples for p in checked.problems):
        assert hints, reasons
    for hint in hints:
        offered = {name: [t.strip() for t in cards.split(",") if t.strip()] for name, cards in OFFERED.findall(hint)}
        assert offered
        idle = {name: [] for name in written if name not in receiving}  # as their refusal says: leave it empty
        fixed = {**order.submission.programs, **idle, **offered}
        again = check_programs(Submission(fixed), robots, receiving, hands, rules, shared_hand=shared)
        assert again.ok, (written, hint, again.problems)


def test_a_geeko_player_who_leaves_a_robot_out_is_offered_a_line_as_long_as_its_partner():
    """The issue's case: Zapper's 3 cards written, Spanner left out; the hint for Spanner has 3 cards, from the
    cards Zapper leaves (B4.5, equal lengths), where it used to offer the nine it has registers for."""
    rules = PRESETS["geeko"]
    robots = [Robot("Zapper", owner="ann"), Robot("Spanner", owner="ann")]
    hand = [Card(500 + 10 * n, "FWD1") for n in range(12)]
    written = {"Zapper": [str(card) for card in hand[:3]]}
    examples = example_programs(robots, ["Zapper", "Spanner"], {"ann": hand}, rules, shared_hand="ann",
                                written=written)
    assert examples == {"Zapper": hand[:3], "Spanner": hand[3:6]}
    assert to_change(examples, written, robots, ["Zapper", "Spanner"], {"ann": hand}, rules,
                     shared_hand="ann") == ["Spanner"]


def test_the_hint_in_a_refusal_by_mail_is_accepted_by_turn_check(tmp_path, monkeypatch):
    """Through `pbem mail fetch` and `pbem turn check`: alice programs Zapper with 3 cards and leaves Spanner
    out; the lines her refusal offers, sent back as an order file, are accepted."""
    monkeypatch.chdir(tmp_path)
    url, hands = new_campaign(tmp_path)
    inbox = mailbox.Maildir(str(tmp_path / "inbox"), create=True)
    body = orders_text("alice", hands["alice"]).replace("\n  Spanner: {program: [" + ", ".join(hands["alice"][2:4])
                                                          + "]}", "").replace(
        ", ".join(hands["alice"][0:2]), ", ".join(hands["alice"][0:3]))
    assert "Spanner" not in body and hands["alice"][2] in body
    inbox.add(mail("alice@example.org", body, "<left-out@x>"))
    fetched = RUNNER.invoke(app, ["--db", url, "--now", "2026-01-01T13:00:00Z", "mail", "fetch", "--maildir",
                                  str(tmp_path / "inbox")])
    assert fetched.exit_code == 1, fetched.stdout
    [(_, _, refused)] = acks(url)
    hint = re.sub(r"\s+", " ", refused.split("A right line", 1)[1])
    offered = dict(OFFERED.findall(hint.split(" Your hand")[0]))
    assert offered.keys() == {"Spanner"} and len(offered["Spanner"].split(",")) == 3, refused
    fixed = body.replace("robots:\n", f"robots:\n  Spanner: {{program: [{offered['Spanner']}]}}\n")
    (tmp_path / "fixed.yaml").write_text(fixed)
    checked = RUNNER.invoke(app, ["--db", url, "turn", "check", "halls", str(tmp_path / "fixed.yaml")])
    assert checked.exit_code == 0, checked.stdout
