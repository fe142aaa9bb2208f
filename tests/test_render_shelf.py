"""Pictures and compiled templates kept between processes (pbem.render.shelf, pbem.cli.shelf): what is read
back is byte-identical to a fresh drawing, a damaged entry is drawn again, and no shelf means no folder."""
from __future__ import annotations

import pytest

from pbem.cli.shelf import FolderShelf, cache_root
from pbem.render import html, static
from pbem.render.board import position_png, robot_sprite
from pbem.render.legend import legend_png
from pbem.render.shelf import kept, lend
from pbem.render.turn import legend_bytes
from tests.render_support import element, position, robot, room

ROOM = room("4x5", element("wall", "r2c2", side="N"), element("conveyor", "r3c1", dir="E"),
            element("laser", "r4c4", wall="E"), starts=("r1c1", "r1c2"))
POSITION = position(ROOM, robot("Zap", "r2c3", "E"))


def fresh_png() -> bytes:
    static._CACHE.clear()  # the in-memory layer and sprites would hide the shelf
    robot_sprite.cache_clear()
    return position_png(POSITION)


@pytest.fixture
def shelf(tmp_path):
    lend(FolderShelf(tmp_path))
    legend_bytes.cache_clear()
    yield FolderShelf(tmp_path)
    lend(None)
    legend_bytes.cache_clear()
    static._CACHE.clear()


def test_a_board_drawn_from_the_shelf_is_byte_identical_to_a_fresh_one(shelf):
    lend(None)
    unshelved = fresh_png()
    lend(shelf)
    drawn = fresh_png()  # drawn, then put on the shelf
    entries = list(shelf.folder.iterdir())
    assert len(entries) == 2  # the room's layer and the robot's sprite
    assert fresh_png() == drawn == unshelved  # the second one read back from the folder
    assert list(shelf.folder.iterdir()) == entries


SWITCHED = room("4x4", element("switch", "r2c2", id="s1", kind="toggle"), element("trapdoor", "r3c3", control="s1"),
                starts=("r1c1",))


def test_a_rooms_stateful_squares_are_kept_and_read_back_byte_identical(shelf, monkeypatch):
    """A fresh process drew each stateful square of its room (~0.7 ms each) for its first board picture (#36)."""
    from pbem.render import board

    switched = position(SWITCHED, robot("Zap", "r1c1", "E"))
    lend(None)
    static._CACHE.clear()
    unshelved = position_png(switched)
    lend(shelf)
    static._CACHE.clear()
    assert position_png(switched) == unshelved  # drawn, then kept
    static._CACHE.clear()

    def drawn(*args):
        raise AssertionError("a kept square drawn again")
    monkeypatch.setattr(board, "_drawn_square", drawn)
    assert position_png(switched) == unshelved


def test_the_legend_and_compiled_templates_are_kept_and_read_back(shelf):
    assert legend_bytes() == legend_png()
    html.environment.cache_clear()
    first = html.environment().get_template("stage.html")
    names = {p.name for p in shelf.folder.iterdir()}
    assert sum(name.startswith("jinja-") for name in names) == 1  # beside the legend and its robot sprites
    legend_bytes.cache_clear()
    html.environment.cache_clear()
    again = html.environment().get_template("stage.html")
    assert legend_bytes() == legend_png()
    assert again.blocks.keys() == first.blocks.keys() and again is not first
    assert {p.name for p in shelf.folder.iterdir()} == names  # read back, nothing new written


def test_a_damaged_entry_is_drawn_again_and_replaced(shelf):
    drawn = fresh_png()
    entries = list(shelf.folder.iterdir())
    for entry in entries:
        entry.write_bytes(b"not a png")
    assert fresh_png() == drawn
    assert all(entry.read_bytes().startswith(b"\x89PNG") for entry in entries)


def test_kept_calls_make_once_per_identity(shelf):
    made = []

    def make() -> bytes:
        made.append(1)
        return b"value"

    assert kept("a", make, bytes, bytes) == kept("a", make, bytes, bytes) == b"value"
    assert kept("b", make, bytes, bytes) == b"value"
    assert len(made) == 2


def test_the_cache_folder_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("PBEM_CACHE_DIR", "")
    assert cache_root() is None
    monkeypatch.setenv("PBEM_CACHE_DIR", str(tmp_path))
    assert cache_root() == tmp_path
    monkeypatch.delenv("PBEM_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_root() == tmp_path / "xdg" / "pbem"


def test_an_unwritable_folder_only_costs_a_redraw(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("a file where the folder should be")
    lend(FolderShelf(blocker))
    try:
        assert fresh_png() == fresh_png()
    finally:
        lend(None)
        static._CACHE.clear()
