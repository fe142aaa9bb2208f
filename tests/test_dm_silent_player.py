"""#34 "Done when": a match of each of the four games played by mail from cron (`pbem run --now`, a Maildir) with
a player who never answers: every deadline from the first turn on passes with nobody acting, applied by the
scheduled run alone (no GM command), and the silent player loses. ann answers every mail with the lines it offers
(in Gyulbot and Ice with a shortest solution of the board her mail shows, as a person's pencil would); bob never
writes. Take-Back-Toe and Flower Field: bob's first turn runs out (RULES D5: the turn time, then the reserve) and
ann wins on time. Gyulbot (D1.4) and Ice (D2.3): bob's undercut and answer windows pass unused, ann scores every
round and wins."""
from __future__ import annotations

import re

import pytest
from dm_desk import DAY, Desk
from dm_players import gyulbot_solution, ice_solution, offers, reply

PUZZLE = "{size: 4, walls: [r3c2 E], robots: {red: [r4c1], blue: [r2c3]}, goal: {at: r1c4, colour: red}}"
MAZE = "{map: [S...., ....., ..#.., ....., ....G]}"
START = f"start: {DAY}20:00:00Z"
HEADERS = {
    "gyulbot": f"game: gyulbot\nplayers: [ann, bob]\noptions: {{rounds: 2, {START}}}\npuzzles: [{PUZZLE}, {PUZZLE}]\n",
    "ice": f"game: ice\nplayers: [ann, bob]\noptions: {{target: 2, {START}}}\npuzzles: [{MAZE}, {MAZE}, {MAZE}]\n",
    "takebacktoe": f"game: takebacktoe\nplayers: [ann, bob]\nseed: 1\noptions: {{{START}}}\n",
    "flowerfield": f"game: flowerfield\nplayers: [ann, bob]\nseed: 4\noptions: {{{START}}}\n",
}


def answer(game: str, text: str) -> str | None:
    """ann's reply to her mail: the offered lines (Gyulbot and Ice: her claim of her own solution's length, then
    that solution); None when it offers her nothing."""
    offered = offers(text)
    if not offered:
        return None
    if game not in ("gyulbot", "ice"):
        return reply(text)
    solution = gyulbot_solution(text) if game == "gyulbot" else ice_solution(text)
    if any(o.startswith("{solution:") for o in offered):
        return reply(text, f'{{solution: "{solution}"}}')
    if any(o.startswith("{claim:") for o in offered):
        return reply(text, f"{{claim: {len(re.findall(r'[UDLR]', solution.replace('Red', '').replace('Blue', '')))}}}")
    return None


@pytest.mark.parametrize("game", sorted(HEADERS))
def test_a_player_who_never_answers_loses_with_every_deadline_applied_by_the_scheduled_run(tmp_path, monkeypatch, game):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_MAIL_CONFIG", raising=False)
    desk = Desk(tmp_path)
    (tmp_path / "m.yaml").write_text(HEADERS[game] + "actions: []\n")
    assert desk.pbem("dm", "new", "m", "--from", tmp_path / "m.yaml", "--out", tmp_path, now="19:00:00").exit_code == 0
    for player in ("ann", "bob"):
        assert desk.pbem("mail", "dm-player", "m", player, f"{player}@example.org", "--secret", f"{player}-s",
                         now="19:00:00").exit_code == 0
    passed, bob = [], []
    for step in range(90):  # a run every 20 s from the start, as cron would, for half an hour at most
        now = f"20:{step * 20 // 60:02d}:{step * 20 % 60:02d}"
        done = desk.run(now)
        passed += [d for d in done if d["what"] == "deadline"]
        mail = desk.new_mail()
        bob += [text for to, _, text in mail if to == "bob@example.org"]
        ann = [text for to, _, text in mail if to == "ann@example.org"]
        if desk.position("m")["over"]:
            break
        sent = answer(game, ann[-1]) if ann else None
        if sent is not None:
            desk.send("ann", sent, f"20:{(step * 20 + 10) // 60:02d}:{(step * 20 + 10) % 60:02d}")
    final = desk.position("m")
    assert final["over"] and final["winner"] == "ann", final
    assert passed, "the scheduled run applied the deadlines bob let pass"
    assert "the match is over: ann wins" in " ".join(bob[-1].split()) or "ann wins" in bob[-1]
    if game in ("takebacktoe", "flowerfield"):
        assert "bob runs out of time" in " ".join(bob[-1].split()), bob[-1]
    submitted = desk.position("m")["submissions"] if "submissions" in final else []
    assert all(row["player"] != "bob" for row in submitted)
