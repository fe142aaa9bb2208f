"""`pbem site` keeps a game's index and feed (issue #36): with nothing new the run reads no state, renders neither
and rewrites no manifest; one more turn renders the index's line and the feed's entry of that turn alone (every
other turn's are kept in the manifest), and the pages are those of a full build. The GM ending the game or a
turn played again changes them."""
from __future__ import annotations

import filecmp
import os
import shutil
from datetime import timedelta

import pytest
from cycle_fixtures import AT
from typer.testing import CliRunner

from pbem.cli import app
from pbem.formats.controls import Control
from pbem.gm import history
from pbem.render import html
from pbem.render.site import MANIFEST, RULES_MADE
from pbem.store import controls
from pbem.store.games import Store, get_game

RUNNER = CliRunner()
GAME = "geeko-demo"


@pytest.fixture
def campaign(tmp_path, monkeypatch, geeko_campaign):
    """Runs `pbem` on a copy of the six-turn sample campaign, in `tmp_path`."""
    monkeypatch.chdir(tmp_path)
    shutil.copyfile(geeko_campaign, tmp_path / "pbem.db")

    def pbem(*args: str) -> None:
        result = RUNNER.invoke(app, ["--db", f"sqlite:///{tmp_path / 'pbem.db'}", *args])
        assert result.exit_code == 0, result.output
    return pbem


def states_read(monkeypatch) -> list[tuple]:
    """The states read for the game's summary, (turn, "after"), and the turns whose report was loaded, (turn,)."""
    read: list[tuple] = []
    stored, report = history.stored_state, history.report_of

    def counted(*args):
        read.append(args[2:4])
        return stored(*args)

    def loaded(*args):
        read.append(args[2:])
        return report(*args)

    monkeypatch.setattr(history, "stored_state", counted)
    monkeypatch.setattr(history, "report_of", loaded)
    return read


def pieces_rendered(monkeypatch) -> list[str]:
    """The turns' index lines and feed entries rendered (by the numbers in what they were given)."""
    rendered: list[str] = []
    pieces = html.pieces

    class Counted:
        def __init__(self, module):
            self.module = module

        def index_line(self, turn):
            rendered.append(f"line {turn['number']}")
            return self.module.index_line(turn)

        def feed_entry(self, game, slug, noun, base, turn, winners):
            rendered.append(f"entry {turn['number']}")
            return self.module.feed_entry(game, slug, noun, base, turn, winners)

    monkeypatch.setattr(html, "pieces", lambda templates=(): Counted(pieces(templates)))
    return rendered


def untouched(folder, *names: str) -> set[str]:
    return {name for name in names if os.stat(folder / name).st_mtime_ns == 0}


def test_nothing_new_reads_no_state_and_renders_no_index_feed_or_manifest(campaign, tmp_path, monkeypatch):
    site = tmp_path / "site"
    campaign("site", GAME, "--out", str(site))
    game = site / GAME
    for name in ("index.html", "feed.xml", "legend.png", MANIFEST):
        os.utime(game / name, ns=(0, 0))
    read, rendered = states_read(monkeypatch), pieces_rendered(monkeypatch)
    campaign("site", GAME, "--out", str(site))
    assert read == [] and rendered == []
    assert untouched(game, "index.html", "feed.xml", "legend.png", MANIFEST) == {
        "index.html", "feed.xml", "legend.png", MANIFEST}
    assert "Turn 6" in (game / "index.html").read_text(encoding="utf-8")


def test_one_more_turn_renders_its_own_line_and_entry_and_the_pages_of_a_full_build(campaign, tmp_path, monkeypatch):
    campaign("turn", "rollback", GAME, "--to", "6")
    site = tmp_path / "site"
    campaign("site", GAME, "--out", str(site))
    campaign("turn", "process", GAME, "--out", "reports")  # turn 6 again
    read, rendered = states_read(monkeypatch), pieces_rendered(monkeypatch)
    campaign("site", GAME, "--out", str(site))
    assert sorted(rendered) == ["entry 6", "line 6"]
    assert sorted(read) == [(6,), (6, "after")]  # the turn written (not turn 5: its next links were kept open), and the standings after turn 6
    monkeypatch.undo()
    monkeypatch.chdir(tmp_path)
    full = tmp_path / "full"
    campaign("site", GAME, "--out", str(full))
    names = sorted(str(p.relative_to(full)) for p in full.rglob("*") if p.is_file() and p.name != RULES_MADE)
    assert filecmp.cmpfiles(site, full, names, shallow=False)[1:] == ([], [])


def test_templates_that_change_the_addresses_get_the_turn_before_written_from_its_report(campaign, tmp_path,
                                                                                          monkeypatch):
    """The last turn's pages with their next links left open are kept only when the templates show an address as
    given: a campaign's copy that rewrites them (here `replace`) gets the turn before written again from its report
    when one more turn comes, and the pages of a full build with the same templates."""
    copies = tmp_path / "copies"
    copies.mkdir()
    macros = (html.TEMPLATE_DIR / "_macros.html").read_text(encoding="utf-8")
    assert '<a href="{{ href }}">' in macros
    (copies / "_macros.html").write_text(macros.replace('<a href="{{ href }}">',
                                                        '<a href="{{ href|replace(\'turn\', \'TURN\') }}">'))
    templates = ["--templates", str(copies)]
    campaign("turn", "rollback", GAME, "--to", "6")
    site = tmp_path / "site"
    campaign("site", GAME, "--out", str(site), *templates)
    campaign("turn", "process", GAME, "--out", "reports")
    read = states_read(monkeypatch)
    campaign("site", GAME, "--out", str(site), *templates)
    assert sorted(read) == [(5,), (6,), (6, "after")]
    monkeypatch.undo()
    monkeypatch.chdir(tmp_path)
    full = tmp_path / "full"
    campaign("site", GAME, "--out", str(full), *templates)
    names = sorted(str(p.relative_to(full)) for p in full.rglob("*") if p.is_file() and p.name != RULES_MADE)
    assert filecmp.cmpfiles(site, full, names, shallow=False)[1:] == ([], [])
    assert "../TURN-006/index.html" in (site / GAME / "turn-005" / "index.html").read_text(encoding="utf-8")


def test_the_gm_ending_the_game_changes_its_index_feed_and_the_sites_index(campaign, tmp_path, monkeypatch):
    site = tmp_path / "site"
    campaign("site", GAME, "--out", str(site))
    store = Store(f"sqlite:///{tmp_path / 'pbem.db'}")
    with store.session() as session:
        game = get_game(session, GAME)
        controls.record(session, game, Control.PRESS, AT, "alice", to=["bob"], text="well played", policy="signed")
        controls.record(session, game, Control.END, AT + timedelta(hours=1), "bob", how="winner", reason="tired")
        session.commit()
    store.close()
    campaign("site", GAME, "--out", str(site))
    page = (site / GAME / "index.html").read_text(encoding="utf-8")
    assert "tired" in page and "well played" in page
    assert "bob won" in (site / GAME / "feed.xml").read_text(encoding="utf-8")
    assert "over: bob won" in (site / "index.html").read_text(encoding="utf-8")
    rendered = pieces_rendered(monkeypatch)
    campaign("site", GAME, "--out", str(site))  # kept: the winners from the manifest
    assert rendered == [] and "over: bob won" in (site / "index.html").read_text(encoding="utf-8")


OLD_INDEX_LOOP = """{%- for turn in turns %}
  <li><a href="{{ turn.href }}">Turn {{ turn.number }}</a>{% if turn.stages %}: stages
    {%- for text, href in turn.stages %} <a href="{{ href }}">{{ text }}</a>{% endfor %}{% endif %}</li>
{%- else %}"""
OLD_FEED_LOOP = """  <updated>{{ turns[-1].at if turns else '1970-01-01T00:00:00Z' }}</updated>
  <author><name>pbem</name></author>
{%- for turn in turns | reverse %}
  <entry>
    <title>{{ game }}: {{ turn.title if turn.title is defined else noun ~ ' ' ~ turn.number }}{% if loop.first and winners %} (the game is over: {{ winners | join(' and ') }} won){% endif %}</title>
    <id>urn:pbem:{{ slug }}:{{ noun }}-{{ turn.number }}</id>
    <link rel="alternate" href="{{ base }}{{ turn.href }}"/>
    <updated>{{ turn.at }}</updated>
    <summary>{{ turn.summary }}</summary>
  </entry>
{%- endfor %}
"""


def test_a_campaign_folders_copy_of_the_templates_from_before_the_kept_pieces_makes_the_same_pages(campaign, tmp_path):
    """`pbem init` copied game_index.html and feed.xml into campaign folders when they listed `turns` themselves:
    such a copy is still given every turn, and makes the same pages."""
    copies = tmp_path / "copies"
    copies.mkdir()
    index = (html.TEMPLATE_DIR / "game_index.html").read_text(encoding="utf-8")
    new_loop = index[index.index("{%- for line in lines %}"):index.index("  <li>No turn processed yet.</li>")]
    (copies / "game_index.html").write_text(index.replace(new_loop, OLD_INDEX_LOOP + "\n"), encoding="utf-8")
    feed = (html.TEMPLATE_DIR / "feed.xml").read_text(encoding="utf-8")
    (copies / "feed.xml").write_text(feed[:feed.index("  <updated>")] + OLD_FEED_LOOP + "</feed>\n", encoding="utf-8")
    campaign("site", GAME, "--out", str(tmp_path / "bundled"))
    campaign("site", GAME, "--out", str(tmp_path / "copied"), "--templates", str(copies))
    for name in ("index.html", "feed.xml"):
        assert (tmp_path / "copied" / GAME / name).read_text(encoding="utf-8") == \
            (tmp_path / "bundled" / GAME / name).read_text(encoding="utf-8")
    assert "Turn 6</a>: stages" in (tmp_path / "copied" / GAME / "index.html").read_text(encoding="utf-8")


def test_one_more_turn_of_the_site_loads_no_mail_module(campaign, tmp_path):
    """The site writes no player's mail: a turn's pages are written without the mail modules (pbem's message
    builder, css_inline), which `pbem run` needs and `pbem site` did load for every turn it wrote."""
    from cli_process import imported_by

    campaign("turn", "rollback", GAME, "--to", "6")
    db = ["--db", f"sqlite:///{tmp_path / 'pbem.db'}"]
    campaign("site", GAME, "--out", str(tmp_path / "site"))
    campaign("turn", "process", GAME, "--out", "reports")
    modules = imported_by(*db, "site", GAME, "--out", str(tmp_path / "site"), cwd=tmp_path, whole_names=True)
    assert "pbem.render.turn" in modules and (tmp_path / "site" / GAME / "turn-006" / "index.html").is_file()
    assert {"css_inline", "pbem.render.message"} & modules == set()


def test_a_site_run_imports_neither_rich_with_no_terminal_nor_importlib_metadata_once_none_is_installed(campaign,
                                                                                                       tmp_path):
    """Fixed costs of every `pbem site` process: Rich is imported only for a bar that can be shown (stderr here is
    no terminal), and once a run found no installed mechanism plug-in (kept in the cache beside a stamp of the
    installed distributions) the next one does not import `importlib.metadata` to scan them again; once a run
    parsed the setup's rooms (kept in the cache, `pbem.store.states`), the next one draws a turn without PyYAML, nor
    Pillow's other format plug-ins."""
    from cli_process import imported_by

    campaign("turn", "rollback", GAME, "--to", "5")
    campaign("site", GAME, "--out", str(tmp_path / "site"))
    command = ["--db", f"sqlite:///{tmp_path / 'pbem.db'}", "site", GAME, "--out", str(tmp_path / "site")]
    for turn in (5, 6):  # each run draws a new turn, so it reads the rooms and with them the mechanisms
        if turn == 6:
            campaign("turn", "deal", GAME)
        campaign("turn", "process", GAME, "--out", "reports")
        modules = imported_by(*command, cwd=tmp_path, whole_names=True)
        assert (tmp_path / "site" / GAME / f"turn-{turn:03}" / "index.html").is_file()
        assert "pbem.engine.mechanisms" in modules and "rich" not in modules
    assert "importlib.metadata" not in modules and "yaml" not in modules
    assert "PIL.JpegImagePlugin" not in modules  # kept pictures read by the PNG reader alone, not `Image.open`


def test_the_manifest_is_a_head_then_one_line_per_turn_each_a_turn_entry(campaign, tmp_path):
    """The manifest's format (JSON lines: a head `{version, shown, game: {key, winners}}`, then one line per turn
    `{turn, key, pages, made, at, line, entry, open?}`, the last turn's with its open pages), read back and written
    again by `TurnEntry` as it was."""
    import json

    from pbem.render.site import TurnEntry

    site = tmp_path / "site"
    campaign("site", GAME, "--out", str(site))
    head, *lines = (site / GAME / MANIFEST).read_text(encoding="utf-8").splitlines()
    assert set(json.loads(head)) == {"version", "shown", "game"} and set(json.loads(head)["game"]) == {"key", "winners"}
    assert [json.loads(line)["turn"] for line in lines] == [1, 2, 3, 4, 5, 6]
    fields = ["turn", "key", "pages", "made", "at", "line", "entry"]
    assert [list(json.loads(line)) for line in lines] == [fields] * 5 + [[*fields, "open"]]
    entries = [TurnEntry.read(line) for line in lines]
    assert [entry.text() for entry in entries] == lines
    assert entries[0].pages[-1] == (None, "final.html") and entries[-1].open and entries[0].open is None


def test_a_turns_key_is_one_digest_of_its_states_events_orders_and_players():
    """The site's manifest keeps each turn's key; it was the orders' JSON inside JSON with the states' digests (~270
    bytes a turn, ~6 ms to make at 1,000 turns): a digest now, changed by any of its parts."""
    from datetime import datetime, timezone

    from pbem.store.played import TurnRow

    row = TurnRow(3, "a" * 64, "b" * 64, "c" * 64, '{"alice": 1, "bob": null}', datetime(2026, 1, 1, tzinfo=timezone.utc))
    key = history._turn_key(row, '["alice", "bob"]')
    assert len(key) == 64 and int(key, 16) >= 0
    others = [row._replace(before_hash="d" * 64), row._replace(after_hash="d" * 64), row._replace(events_hash="d" * 64),
              row._replace(orders='{"alice": 2, "bob": null}')]
    assert len({key, *(history._turn_key(other, '["alice", "bob"]') for other in others),
                history._turn_key(row, '["alice", "carol"]')}) == 6
