"""Issue #35: each game's Atom feed read back with `feedparser`, as a feed reader reads it: with the site's address
(`pbem site --base-url`) every link is absolute and the feed says its base (`xml:base`); each entry is dated by
the time its turn was processed."""
from __future__ import annotations

from datetime import datetime, timezone

import feedparser
import pytest
from typer.testing import CliRunner

from pbem.cli import app

PROCESSED = ["2026-12-01T18:00:00Z", "2026-12-02T19:30:00Z"]


@pytest.fixture(scope="module")
def pbem(tmp_path_factory):
    db = f"sqlite:///{tmp_path_factory.mktemp('feed') / 'pbem.db'}"

    def run(now: str, *args: str):
        return CliRunner().invoke(app, ["--db", db, "--now", now, *map(str, args)])
    assert run("2026-12-01T12:00:00Z", "game", "new", "spring", "--ruleset", "botwars", "--seed", "3", "--player",
               "ann:ann@x.org", "--player", "ben:ben@x.org").exit_code == 0
    for at in PROCESSED:  # nobody sends orders: the robot pilot plays for them (B4.6)
        assert run(at, "turn", "deal", "spring").exit_code == 0
        processed = run(at, "turn", "process", "spring")
        assert processed.exit_code == 0, processed.output
    return run


def test_with_the_sites_address_every_feed_link_is_absolute(pbem, tmp_path):
    made = pbem(PROCESSED[-1], "site", "spring", "--out", tmp_path / "site", "--base-url", "https://example.org/games")
    assert made.exit_code == 0, made.output
    feed = feedparser.parse((tmp_path / "site" / "spring" / "feed.xml").read_bytes())
    assert not feed.bozo, feed.bozo_exception
    assert 'xml:base="https://example.org/games/spring/"' in (tmp_path / "site" / "spring" / "feed.xml").read_text()
    assert feed.feed.link == "https://example.org/games/spring/index.html"
    assert [link.href for link in feed.feed.links if link.rel == "self"] == ["https://example.org/games/spring/feed.xml"]
    assert [entry.link for entry in feed.entries] == [f"https://example.org/games/spring/turn-00{n}/index.html"
                                                      for n in (2, 1)]
    for entry in feed.entries:  # and each page it names is there
        assert (tmp_path / "site" / entry.link.removeprefix("https://example.org/games/")).is_file()


def test_each_entry_is_dated_by_its_turns_processing(pbem, tmp_path):
    assert pbem(PROCESSED[-1], "site", "spring", "--out", tmp_path / "site").exit_code == 0
    feed = feedparser.parse((tmp_path / "site" / "spring" / "feed.xml").read_bytes())
    dated = [datetime(*entry.updated_parsed[:6], tzinfo=timezone.utc) for entry in feed.entries]
    assert dated == [datetime.fromisoformat(at) for at in reversed(PROCESSED)]
    assert datetime(*feed.feed.updated_parsed[:6], tzinfo=timezone.utc) == dated[0]


@pytest.mark.parametrize("address", ["example.org/games", "ftp://example.org/", "https://example.org/?page=2",
                                     "https:///games"])
def test_an_address_that_is_not_a_web_address_is_refused(pbem, tmp_path, address):
    made = pbem(PROCESSED[-1], "site", "spring", "--out", tmp_path / "site", "--base-url", address)
    assert made.exit_code == 2 and "--base-url" in made.output and not (tmp_path / "site").exists()
