"""`pbem room render FILE --out PNG` (DESIGN.md "Command line")."""
from __future__ import annotations

from io import BytesIO

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
