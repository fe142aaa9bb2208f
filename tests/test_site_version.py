"""The site's version (what its pages are made by: pbem's code and the templates) is kept in the cache beside the
files' sizes and times (issue #36): a run that finds every file as it was reads none of them, and a template edited,
added or removed, even with its modification time set back, still changes it, so the site is written again."""
from __future__ import annotations

import os
import shutil

from typer.testing import CliRunner

from pbem.cli import app, shelf
from pbem.render.html import TEMPLATE_DIR

RUNNER = CliRunner()
GAME = "geeko-demo"


def reads(monkeypatch) -> list[int]:
    """Counts the times the files are hashed (read)."""
    counted: list[int] = []
    hashed = shelf._hashed

    def counting(folders):
        counted.append(1)
        return hashed(folders)

    monkeypatch.setattr(shelf, "_hashed", counting)
    return counted


def test_a_kept_digest_reads_no_file_and_equals_the_hash(tmp_path, monkeypatch):
    folder = tmp_path / "templates"
    shutil.copytree(TEMPLATE_DIR, folder)
    counted = reads(monkeypatch)
    memo = tmp_path / "cache"
    first = shelf.files_digest(folder, memo=memo)
    assert shelf.files_digest(folder, memo=memo) == first == shelf.files_digest(folder)
    assert len(counted) == 2  # the first with a memo, and the one without


def test_a_template_edited_added_or_removed_changes_the_kept_digest(tmp_path):
    folder = tmp_path / "templates"
    shutil.copytree(TEMPLATE_DIR, folder)
    memo = tmp_path / "cache"
    seen = {shelf.files_digest(folder, memo=memo)}
    page = folder / "game_index.html"
    times = os.stat(page)
    page.write_text(page.read_text(encoding="utf-8").replace("Turns", "Tours"), encoding="utf-8")  # the same size
    os.utime(page, ns=(times.st_atime_ns, times.st_mtime_ns))  # and its time set back
    seen.add(shelf.files_digest(folder, memo=memo))
    (folder / "extra.html").write_text("new", encoding="utf-8")
    seen.add(shelf.files_digest(folder, memo=memo))
    (folder / "extra.html").unlink()
    (folder / "feed.xml").unlink()
    seen.add(shelf.files_digest(folder, memo=memo))
    assert len(seen) == 4
    assert shelf.files_digest(folder, memo=memo) == shelf.files_digest(folder)


def test_a_folder_linking_to_a_folder_is_hashed_every_run(tmp_path, monkeypatch):
    folder = tmp_path / "templates"
    shutil.copytree(TEMPLATE_DIR, folder)
    (folder / "more").symlink_to(folder / "..", target_is_directory=True)
    counted = reads(monkeypatch)
    shelf.files_digest(folder, memo=tmp_path / "cache")
    shelf.files_digest(folder, memo=tmp_path / "cache")
    assert len(counted) == 2


def test_an_edited_template_rebuilds_the_site_and_the_next_run_reads_no_file(tmp_path, monkeypatch, geeko_campaign):
    monkeypatch.chdir(tmp_path)
    database = tmp_path / "pbem.db"
    shutil.copyfile(geeko_campaign, database)
    templates = tmp_path / "templates"
    templates.mkdir()
    shutil.copyfile(TEMPLATE_DIR / "turn_report.html", templates / "turn_report.html")
    site = tmp_path / "site"
    command = ["--db", f"sqlite:///{database}", "site", GAME, "--out", str(site), "--templates", str(templates)]
    assert RUNNER.invoke(app, command).exit_code == 0
    report = site / GAME / "turn-003" / "index.html"
    assert "Edited by the GM" not in report.read_text(encoding="utf-8")
    counted = reads(monkeypatch)
    assert RUNNER.invoke(app, command).exit_code == 0
    assert counted == []  # nothing changed: every file as it was, none read
    page = templates / "turn_report.html"
    page.write_text(page.read_text(encoding="utf-8").replace("{% block body %}", "{% block body %}<p>Edited by the GM</p>", 1),
                    encoding="utf-8")
    assert RUNNER.invoke(app, command).exit_code == 0
    assert "Edited by the GM" in report.read_text(encoding="utf-8")
    assert len(counted) == 1
