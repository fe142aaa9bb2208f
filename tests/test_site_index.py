"""The site (issue #24): `pbem site` keeps every game already in the output folder on the index (death matches
too), a game's page says the result once the engine says the game is over, and each game has an Atom feed of its
turns."""
from __future__ import annotations

from xml.etree import ElementTree

from pbem.render.site import GameHistory, StoredTurn, Summary, write_index, write_site
from pbem.render.turn import build_turn_report
from tests.render_support import sample_board_turn

ATOM = "{http://www.w3.org/2005/Atom}"
STANDINGS = [{"place": 1, "player": "alice", "rooms_done": 5, "turns": 9},
             {"place": 2, "player": "bob", "rooms_done": 3, "turns": None}]


def game(name: str, over: bool = False) -> GameHistory:
    report = build_turn_report(name, 1, [sample_board_turn()])
    turns = [StoredTurn(n, "", lambda: report, f"2026-01-0{n}T20:00:00Z") for n in (1, 2)]
    return GameHistory(name, turns, Summary(STANDINGS, ending=["The game is over: alice wins (every player is through all rooms, and the fewest turns win (G1))."] if over else []))


def test_a_second_site_run_keeps_the_first_game_on_the_index_and_a_match_adds_itself(tmp_path):
    write_site(tmp_path, [game("spring", over=True)])
    write_site(tmp_path, [game("autumn")])
    (tmp_path / "duel").mkdir()
    (tmp_path / "duel" / "index.html").write_text("a match page", encoding="utf-8")
    write_index(tmp_path, [{"name": "duel", "href": "duel/index.html", "result": "gyulbot death match: going on"}])
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert index.index('href="autumn/index.html"') < index.index('href="duel/index.html"') \
        < index.index('href="spring/index.html"')
    assert "spring</a> — 2 turns, over: alice won" in index and "gyulbot death match: going on" in index


def test_a_game_page_says_the_result_when_it_ends_and_not_before(tmp_path):
    write_site(tmp_path, [game("spring", over=True), game("autumn")])
    assert "The game is over: alice wins" in (tmp_path / "spring" / "index.html").read_text(encoding="utf-8")
    assert "The game is over" not in (tmp_path / "autumn" / "index.html").read_text(encoding="utf-8")


def test_each_game_has_an_atom_feed_of_its_turns_newest_first(tmp_path):
    write_site(tmp_path, [game("spring", over=True)])
    feed = ElementTree.parse(tmp_path / "spring" / "feed.xml").getroot()
    assert feed.tag == f"{ATOM}feed" and feed.findtext(f"{ATOM}updated") == "2026-01-02T20:00:00Z"
    entries = feed.findall(f"{ATOM}entry")
    assert [e.findtext(f"{ATOM}id") for e in entries] == ["urn:pbem:spring:turn-2", "urn:pbem:spring:turn-1"]
    assert [e.find(f"{ATOM}link").get("href") for e in entries] == ["turn-002/index.html", "turn-001/index.html"]
    assert "the game is over: alice won" in entries[0].findtext(f"{ATOM}title")
    assert 'href="feed.xml"' in (tmp_path / "spring" / "index.html").read_text(encoding="utf-8")
