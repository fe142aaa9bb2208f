"""A template folder is read bounded (#37), as every file a command is given: a campaign's templates/ (a copy
`pbem init` made, or any template a GM dropped in) holding a FIFO, an over-size file or a link out of the folder
under a template's name is refused, naming the path and why — never a read that blocks, fills memory or shows a
file from elsewhere. `pbem report` and `pbem site` through the installed command's `main()`."""
from __future__ import annotations

import os
import shutil

import pytest
from cli_process import run_pbem
from mail_fixtures import new_campaign


@pytest.fixture
def campaign(tmp_path, geeko_campaign):
    """The processed Geek-o sample campaign, and its folder with the GM's templates/ (as `pbem init` makes it)."""
    shutil.copyfile(geeko_campaign, tmp_path / "pbem.db")
    assert run_pbem("init", tmp_path / "folder").returncode == 0
    return f"sqlite:///{tmp_path / 'pbem.db'}", tmp_path / "folder"


def planted(folder, kind: str) -> str:
    """What the GM's templates/ holds in place of a template: a FIFO nobody writes to, a 1 GB file (sparse), a link
    to a file outside; the refusal expected."""
    templates = folder / "templates"
    if kind == "fifo":
        os.remove(templates / "style.css")
        os.mkfifo(templates / "style.css")
        return "templates/style.css: a named pipe (FIFO), not a regular file: not read"
    if kind == "huge":
        with open(templates / "turn_report.html", "wb") as file:
            file.truncate(1024 ** 3)
        return ("templates/turn_report.html: 1,073,741,824 bytes, more than a template's limit (1,000,000 bytes): "
                "not read")
    (folder / "elsewhere.css").write_text("body { color: red; }\n")
    os.remove(templates / "style.css")
    os.symlink(folder / "elsewhere.css", templates / "style.css")
    return f"templates/style.css: a link to {os.path.realpath(folder / 'elsewhere.css')}, outside templates: not read"


@pytest.mark.parametrize("kind", ["fifo", "huge", "link"])
@pytest.mark.parametrize("command", ["report", "site"])
def test_a_template_that_is_no_bounded_regular_file_in_its_folder_is_refused_naming_it(campaign, kind, command):
    url, folder = campaign
    refusal = planted(folder, kind)
    result = run_pbem("--db", url, command, "geeko-demo", "--out", "out", cwd=folder)
    assert result.returncode == 1 and refusal in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


def test_the_templates_pbem_init_copies_are_read_as_the_bundled_ones(campaign):
    url, folder = campaign
    result = run_pbem("--db", url, "report", "geeko-demo", "--out", "out", cwd=folder)
    assert result.returncode == 0, result.stderr
    assert "<h1>geeko-demo — turn 6</h1>" in (folder / "out" / "geeko-demo" / "turn-006" / "index.html").read_text()


def test_a_turn_processed_with_a_fifo_for_a_template_is_stored_and_its_reports_owed_naming_the_template(tmp_path):
    url, _ = new_campaign(tmp_path)
    (tmp_path / "templates").mkdir()
    os.mkfifo(tmp_path / "templates" / "style.css")
    result = run_pbem("--db", url, "turn", "process", "halls", "--out", "reports", cwd=tmp_path)
    assert ("halls turn 1 is stored, but its reports could not be made: the template templates/style.css: a named "
            "pipe (FIFO), not a regular file: not read. Fix the template, then: pbem report halls --turn 1 --out "
            "reports") in result.stderr, result.stderr
