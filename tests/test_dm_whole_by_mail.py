"""One match of each death-match game played purely by mail through `pbem run --now` (RULES D1-D5 and the D5
rulings): scripted players read only their mails (the text board, the offered lines) and reply with the lines as
offered; the GM rolls late, races a player's mail, extends and closes deadlines; a late action is refused. The
outcome equals the adjudication of the transcript of what was sent, and every reply block of every mail, sent
as it stands at the moment the mail went out, is accepted or refused only for being late.

Each match is played twice: over the loopback IMAP and SMTP servers, GM commands reading the same IMAP inbox as
`pbem run` and sending at once; and through a Maildir, where each reply block is also tried on a copy of the
desk (a run that sends nothing).
"""
from __future__ import annotations

import json
import shutil

import pytest
from dm_desk import DAY, Desk, loopback_desk, reply_block
from dm_players import gyulbot_solution, ice_solution, offer, offers, reply

pytestmark = pytest.mark.slow  # whole matches, many runs each (the fast suite has test_dm_gm.py)

PUZZLE = "{size: 4, walls: [r3c2 E], robots: {red: [r4c1], blue: [r2c3]}, goal: {at: r1c4, colour: red}}"
MAZE = "{map: [S...., ....., ..#.., ....., ....G]}"


class Match:
    """A match at the desk: its players' mail, what they sent (for the transcript) and the check of every block."""

    def __init__(self, desk: Desk, name: str):
        self.desk, self.name = desk, name
        self.inbox: dict[str, list[str]] = {"ann": [], "bob": []}
        self.sent: list[str] = []  # transcript lines: what reached the server, and the GM's commands
        self.blocks = 0

    def read(self) -> None:
        """Deliver the new mail to the players, checking each offered reply block as of its sending."""
        for recipient, _, text, queued in self.desk.new_mail(with_time=True):
            player = recipient.split("@")[0]
            self.inbox[player].append(text)
            if reply_block(text) is not None and self.desk.imap is None:
                self.check_block(player, text, queued)

    def last(self, player: str) -> str:
        return self.inbox[player][-1]

    def said(self, player: str) -> str:
        """The last mail's words, read across the text part's 78-column wrap."""
        return " ".join(self.last(player).split())

    def send(self, player: str, body: str, received: str) -> None:
        self.desk.send(player, body, received)
        action = next(line for line in body.splitlines() if line.startswith("action: "))[len("action: "):]
        self.sent.append(f"  - {{player: {player}, at: {DAY}{received}Z, {action[1:-1]}}}")

    def gm(self, *args: str, now: str):
        result = self.desk.gm(*args, now=now)
        payload = {"roll": lambda n: f"roll: {n}", "extend": lambda s: f"extend: {s}",
                   "timeout": lambda: "timeout: true"}[args[0]](*args[2:])
        self.sent.append(f"  - {{player: GM, at: {DAY}{now}Z, {payload}}}")
        return result

    def check_block(self, player: str, text: str, queued: str) -> None:
        """The block sent as it stands, received the moment the mail went out, on a copy of the desk."""
        self.blocks += 1
        copy = Desk(self.desk.folder / f"check-{self.name}-{self.blocks}")
        shutil.copy(self.desk.folder / "pbem.db", copy.folder / "pbem.db")
        copy.send(player, reply_block(text), queued)
        [fetched] = [d for d in copy.run(queued) if d["what"] == "fetched"]
        outcome = json.loads(copy.pbem("dm", "show", self.name, "--json", "--out", copy.folder).stdout)["submissions"][-1]
        assert fetched["detail"].startswith("accepted") or (outcome["reason"] or "").startswith("too late"), (
            text, fetched, outcome)

    def replayed(self, header: str) -> dict:
        """`pbem dm replay` of the transcript of what was sent."""
        path = self.desk.folder / f"{self.name}-sent.yaml"
        path.write_text(header + "actions:\n" + "\n".join(self.sent) + "\n")
        return json.loads(self.desk.pbem("dm", "replay", path, "--json").stdout)[0]


@pytest.fixture(params=["servers", "maildir"])
def desk(request, tmp_path, tmp_path_factory, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_MAIL_CONFIG", raising=False)
    if request.param == "maildir":
        yield Desk(tmp_path)
        return
    with loopback_desk(tmp_path, tmp_path_factory, monkeypatch) as desk:
        yield desk


def begin(desk: Desk, name: str, header: str, now: str) -> Match:
    (desk.folder / f"{name}.yaml").write_text(header + "actions: []\n")
    assert desk.pbem("dm", "new", name, "--from", desk.folder / f"{name}.yaml", "--out", desk.folder,
                     now=now).exit_code == 0
    for player in ("ann", "bob"):
        assert desk.pbem("mail", "dm-player", name, player, f"{player}@example.org", "--secret",
                         f"{player}-secret", now=now).exit_code == 0
    return Match(desk, name)


def test_gyulbot_by_mail_an_extension_and_a_gm_timeout_racing_a_demonstration(desk):
    header = (f"game: gyulbot\nplayers: [ann, bob]\noptions: {{rounds: 2, start: {DAY}20:00:00Z}}\n"
              f"puzzles: [{PUZZLE}, {PUZZLE}]\n")
    m = begin(desk, "g1", header, "19:00:00")
    desk.run("20:00:00")
    m.read()
    ann_opening = m.last("ann")
    moves = len(gyulbot_solution(ann_opening).replace(" ", "").replace("Red", "").replace("Blue", ""))
    assert moves == 2  # red U then R (by hand: r4c1 up to r1c1, right to the goal r1c4)
    m.send("ann", reply(ann_opening, f"{{claim: {moves}}}"), "20:01:00")
    desk.run("20:01:30")
    m.read()
    assert offer(m.last("bob"), "skip") == "{skip: true}" and "{undercut: 1}" in offers(m.last("bob"))
    m.send("bob", reply(m.last("bob"), "{skip: true}"), "20:01:40")  # no 1-move solution: ann demonstrates now
    desk.run("20:01:50")
    m.read()
    assert "Deadline: 2026-12-01 20:03:40 UTC" in m.last("ann")
    assert m.gm("extend", "g1", "60", now="20:02:00").exit_code == 0
    m.read()
    assert "Deadline: 2026-12-01 20:04:40 UTC" in m.last("ann")  # the text board says the same:
    assert "ann must show 2 moves by 2026-12-01 20:04:40 UTC." in m.last("ann")
    m.send("ann", reply(m.last("ann"), f'{{solution: "{gyulbot_solution(m.last("ann"))}"}}'), "20:04:20")
    desk.run("20:04:30")  # in time only thanks to the extension: ann 1
    m.read()
    # round 2: bob claims 2 at 20:05; nobody undercuts; he demonstrates by 20:08:00
    m.send("bob", reply(m.last("bob"), "{claim: 2}"), "20:05:00")
    desk.run("20:06:30")
    m.read()
    m.send("bob", reply(m.last("bob"), f'{{solution: "{gyulbot_solution(m.last("bob"))}"}}'), "20:07:50")
    # the GM closes the deadline at 20:07:55, before any run read bob's mail: it reads it first (D5 ruling)
    closed = m.gm("timeout", "g1", now="20:07:55")
    assert "read first: accepted bob@example.org bob" in closed.output and "the match is over" in closed.output
    m.read()
    final = desk.position("g1")
    assert final["over"] and final["winner"] == "bob" and final["scores"] == {"ann": 1, "bob": 1}
    assert "Match over: bob wins (tied 1-1: bob wins as the designated opponent)" in m.last("ann")
    assert "Nothing to send now: the match is over." in m.last("ann")
    replayed = m.replayed(header)
    assert (replayed["winner"], replayed["scores"]) == (final["winner"], final["scores"])
    assert [e["index"] for e in replayed["errors"]] == [6]  # the GM's timeout came after the end
    assert m.blocks >= 6 or desk.imap is not None


def test_ice_by_mail_a_gm_timeout_and_a_late_presentation(desk):
    header = (f"game: ice\nplayers: [ann, bob]\noptions: {{target: 2, start: {DAY}20:00:00Z}}\n"
              f"puzzles: [{MAZE}, {MAZE}]\n")
    m = begin(desk, "i1", header, "19:00:00")
    desk.run("20:00:00")
    m.read()
    orders = ice_solution(m.last("ann"))
    assert len(orders) == 2  # R then D, or D then R (by hand)
    m.send("ann", reply(m.last("ann"), f"{{claim: {len(orders)}}}"), "20:01:00")
    desk.run("20:01:10")
    m.read()
    m.send("ann", reply(m.last("ann"), f'{{solution: "{orders}"}}'), "20:01:30")
    desk.run("20:01:40")
    m.read()
    # the proven minimum, yet bob's minute runs (D2.3 ruling): his mail offers a pass, the deadline is 20:02:30
    assert "{pass: true}" in offers(m.last("bob")) and "Deadline: 2026-12-01 20:02:30 UTC" in m.last("bob")
    assert m.gm("timeout", "i1", now="20:02:00").exit_code == 0  # the GM closes bob's minute: ann scores
    m.read()
    assert "ann 1, bob 0" in m.last("bob")
    m.send("bob", reply(m.last("bob"), "{claim: 2}"), "20:03:00")
    desk.run("20:03:10")
    m.read()
    m.send("bob", reply(m.last("bob"), f'{{solution: "{ice_solution(m.last("bob"))}"}}'), "20:04:10")  # late
    desk.run("20:04:30")
    m.read()
    assert "too late: at 2026-12-01 20:04:00 UTC bob did not present 2 orders: ann scores." in m.said("bob")
    final = desk.position("i1")
    assert final["over"] and final["winner"] == "ann" and final["scores"] == {"ann": 2, "bob": 0}
    replayed = m.replayed(header)
    assert (replayed["winner"], replayed["scores"]) == (final["winner"], final["scores"])
    assert [e["index"] for e in replayed["errors"]] == [4]


def test_take_back_toe_by_mail_with_the_gms_dice(desk):
    header = "game: takebacktoe\nplayers: [ann, bob]\noptions: {dice: gm, clock: {turn: 60, reserve: 0}}\n"
    m = begin(desk, "t1", header, "19:00:00")
    m.read()
    assert "waiting for the GM's roll" in m.last("ann") and "Deadline:" not in m.last("ann")
    assert m.gm("roll", "t1", "4", now="19:05:00").exit_code == 0
    m.read()
    m.send("ann", reply(m.last("ann")), "19:05:30")
    desk.run("19:06:00")
    m.read()
    assert "waiting for the GM's roll" in m.last("bob") and "Deadline:" not in m.last("bob")
    # the GM rolls for bob ten minutes late: bob's minute starts at the roll (D5 ruling)
    assert m.gm("roll", "t1", "3", now="19:15:00").exit_code == 0
    m.read()
    assert "Deadline: 2026-12-01 19:16:00 UTC" in m.last("bob")
    m.send("bob", reply(m.last("bob")), "19:15:40")
    # the GM rolls for the next turn before any run read bob's move: it is read first, so the roll is ann's
    rolled = m.gm("roll", "t1", "2", now="19:15:50")
    assert rolled.exit_code == 0 and "read first: accepted bob@example.org bob" in rolled.output
    m.read()
    assert m.gm("extend", "t1", "60", now="19:16:30").exit_code == 0  # ann: 19:16:50 -> 19:17:50
    m.read()
    assert "Deadline: 2026-12-01 19:17:50 UTC" in m.last("ann")
    m.send("ann", reply(m.last("ann")), "19:17:20")
    desk.run("19:17:30")
    m.read()
    assert m.gm("roll", "t1", "1", now="19:20:00").exit_code == 0
    m.read()
    m.send("bob", reply(m.last("bob")), "19:21:30")  # the minute ended at 19:21:00
    desk.run("19:22:00")
    m.read()
    final = desk.position("t1")
    assert final["over"] and final["winner"] == "ann"
    assert "too late: at 2026-12-01 19:21:00 UTC bob runs out of time; ann wins" in m.said("bob")
    assert "Nothing to send now: the match is over." in m.last("ann")
    replayed = m.replayed(header)
    assert replayed["winner"] == final["winner"] and replayed["scores"] == final["scores"]
    assert [e["index"] for e in replayed["errors"]] == [len(m.sent) - 1]


def test_flower_field_by_mail_plant_and_challenge_deadlines_stated_apart(desk):
    header = "game: flowerfield\nplayers: [ann, bob]\n"  # classic: 2 min a turn, +1 min for a challenge
    m = begin(desk, "f1", header, "19:00:00")
    m.read()
    m.send("ann", reply(m.last("ann")), "19:01:00")
    desk.run("19:01:10")
    m.read()
    bob = m.last("bob")
    # 2 minutes and the 10-minute reserve from ann's plant at 19:01:00; a challenge has one more minute (D5)
    assert "Deadline: 2026-12-01 19:14:00 UTC" in bob
    assert "  to plant: 2026-12-01 19:13:00 UTC" in bob and "  to challenge or give up: 2026-12-01 19:14:00 UTC" in bob
    for received in ("19:02:00", "19:02:30", "19:03:00"):  # bob gives up three times: three lives gone
        m.send("bob", reply(m.last("bob"), offer(m.last("bob"), "give_up")), received)
        desk.run(received)
        m.read()
    final = desk.position("f1")
    assert final["over"] and final["winner"] == "ann" and final["lives"] == {"ann": 3, "bob": 0}
    replayed = m.replayed(header)
    assert replayed["winner"] == "ann" and replayed["lives"] == final["lives"] and replayed["errors"] == []
