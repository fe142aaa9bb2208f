"""`pbem room render FILE --out PNG`, `pbem report GAME [--turn N] --out DIR`, `pbem site GAME --out DIR`
(DESIGN.md "Command line")."""
from __future__ import annotations

import email
import json
import shutil
from email import policy
from io import BytesIO

import pytest
from PIL import Image
from typer.testing import CliRunner

from pbem.cli import app
from pbem.render.style import CELL, MARGIN

ROOM = """\
name: Loading Dock
size: 8x7
starts: [r8c3, r8c5]
elements:
  - {type: wall, at: r3c4, side: W}
  - {type: conveyor, at: r4c1, dir: E}
  - {type: switch, at: r6c6, id: s1, kind: toggle}
  - {type: trapdoor, at: r5c5, control: s1}
  - {type: laser, at: r2c1, wall: W, beams: 1}
"""


def test_render_cli_room_render_writes_the_picture(tmp_path):
    source = tmp_path / "dock.yaml"
    source.write_text(ROOM)
    out = tmp_path / "pictures" / "dock.png"
    result = CliRunner().invoke(app, ["room", "render", str(source), "--out", str(out)])
    assert result.exit_code == 0, result.output
    picture = Image.open(BytesIO(out.read_bytes()))
    assert picture.size == (7 * CELL + 2 * MARGIN, 8 * CELL + 2 * MARGIN)


def test_render_cli_room_render_refuses_a_bad_room_with_its_line(tmp_path):
    source = tmp_path / "bad.yaml"
    source.write_text(ROOM + "  - {type: teleporter, at: r9c9, colour: red}\n")
    out = tmp_path / "bad.png"
    result = CliRunner().invoke(app, ["room", "render", str(source), "--out", str(out)])
    assert result.exit_code == 1
    assert f"{source}:10" in result.output and not out.exists()


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory, geeko_campaign) -> str:
    """The bundled Geek-o sample campaign (turns/geeko), processed, in this module's own SQLite file."""
    path = tmp_path_factory.mktemp("db") / "pbem.db"
    shutil.copyfile(geeko_campaign, path)
    return f"sqlite:///{path}"


def _run(*args: str):
    return CliRunner().invoke(app, list(args))


def test_render_cli_report_writes_pages_pictures_and_emails(demo_db, tmp_path):
    result = _run("--db", demo_db, "report", "geeko-demo", "--turn", "2", "--out", str(tmp_path), "--json")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "geeko-demo" / "turn-002"
    assert json.loads(result.output)["folder"] == str(folder)
    assert (folder / "index.html").exists() and (folder / "board1-stage1.png").exists()
    mails = sorted(p.name for p in (folder / "mail").glob("*.eml"))
    assert mails == ["alice.eml", "bob.eml"]
    alice = email.message_from_bytes((folder / "mail" / "alice.eml").read_bytes(), policy=policy.default)
    assert alice["Subject"] == "geeko-demo: turn 2 report for alice"
    assert "alice — " in alice.get_body(("plain",)).get_content()
    assert "bob — " not in alice.get_body(("plain",)).get_content()  # Geek-o: each player sees their room


def test_render_cli_report_defaults_to_the_last_turn_and_refuses_others(demo_db, tmp_path):
    result = _run("--db", demo_db, "report", "geeko-demo", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "geeko-demo" / "turn-006" / "index.html").exists()
    refused = _run("--db", demo_db, "report", "geeko-demo", "--turn", "99", "--out", str(tmp_path))
    assert refused.exit_code == 1 and "turn 99 has not been processed" in refused.output


def test_render_cli_site_indexes_every_turn(demo_db, tmp_path):
    result = _run("--db", demo_db, "site", "geeko-demo", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    index = (tmp_path / "geeko-demo" / "index.html").read_text()
    assert all(f'href="turn-{n:03d}/index.html"' in index for n in range(1, 7))
    assert "Geek-o standings" in index
    assert 'href="geeko-demo/index.html"' in (tmp_path / "index.html").read_text()


def test_render_cli_report_uses_a_campaigns_own_templates(demo_db, tmp_path):
    """A GM's templates/ folder comes first; the bundled templates fill in the rest."""
    mine = tmp_path / "templates"
    mine.mkdir()
    (mine / "style.css").write_text("body { background: #102030; }\n")
    result = _run("--db", demo_db, "report", "geeko-demo", "--turn", "1", "--out", str(tmp_path / "out"),
                  "--templates", str(mine))
    assert result.exit_code == 0, result.output
    page = (tmp_path / "out" / "geeko-demo" / "turn-001" / "index.html").read_text()
    assert "background: #102030" in page and "<h1>geeko-demo — turn 1</h1>" in page
