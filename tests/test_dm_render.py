"""Death-match pictures and text: byte-stable PNGs, the last move highlighted, every cell shown."""
from __future__ import annotations

from pbem.dm import Action, Config, get_game, replay
from pbem.render.dm import MATCH_PNG_LEVEL, draw, png_bytes, write
from pbem.render.dm_flowerfield import CELL as FF_CELL
from pbem.render.dm_flowerfield import HEADER as FF_HEADER
from pbem.render.dm_flowerfield import MARGIN as FF_MARGIN
from pbem.render.dm_flowerfield import MARK
from pbem.render.dm_takebacktoe import CELL, FROM_COLOUR, HEADER, MARGIN, TO_COLOUR


def tbt_data():
    config = Config("takebacktoe", ("Red", "Green"), options={"dice": "gm"})
    state = replay(config, [Action("Red", {"roll": 4, "move": "B2-A2"})]).state
    return get_game("takebacktoe").render_data(state)


def ff_data():
    config = Config("flowerfield", ("Ann", "Bob"), variant="pan")
    state = replay(config, [Action("Ann", {"plant": ["green D5", "yellow C4"]})]).state
    return get_game("flowerfield").render_data(state)


def test_png_bytes_are_stable():
    for game, data in (("takebacktoe", tbt_data()), ("flowerfield", ff_data())):
        assert png_bytes(draw(game, data)) == png_bytes(draw(game, data))
        assert png_bytes(draw(game, data))[:8] == b"\x89PNG\r\n\x1a\n"


def test_png_bytes_are_pillows_png_at_the_level_asked():
    """The format is told by the buffer's name (Pillow then loads its PNG plugin alone): the same bytes as asked by
    format; a match's picture at MATCH_PNG_LEVEL."""
    import io

    image = draw("takebacktoe", tbt_data())
    for level in (MATCH_PNG_LEVEL, 9):
        asked = io.BytesIO()
        image.save(asked, format="PNG", optimize=False, compress_level=level)
        assert png_bytes(image, level) == asked.getvalue()
    assert png_bytes(image) == png_bytes(image, MATCH_PNG_LEVEL) != png_bytes(image, 9)


def test_takebacktoe_last_move_is_highlighted():
    image = draw("takebacktoe", tbt_data())
    top = HEADER + MARGIN
    b2 = (MARGIN + CELL + 3, top + CELL + CELL // 2)      # inside the border of B2, the source
    a2 = (MARGIN + CELL + 3, top + CELL // 2)             # A2, the target
    b3 = (MARGIN + 2 * CELL + 3, top + CELL + CELL // 2)  # untouched
    assert image.getpixel(b2) == FROM_COLOUR and image.getpixel(a2) == TO_COLOUR
    assert image.getpixel(b3) not in (FROM_COLOUR, TO_COLOUR)


def test_takebacktoe_text():
    text = write("takebacktoe", tbt_data())
    assert "A    .   4   .   .   home of Red" in text
    assert "B   10   6  10  10" in text
    assert "Last: Red rolled 4 and moved B2-A2." in text and "Green to move" in text


def test_flowerfield_last_move_is_highlighted():
    image = draw("flowerfield", ff_data())
    top = FF_HEADER + FF_MARGIN
    d5 = (FF_MARGIN + 4 * FF_CELL + 3, top + 3 * FF_CELL + FF_CELL // 2)
    d4 = (FF_MARGIN + 3 * FF_CELL + 3, top + 3 * FF_CELL + FF_CELL // 2)
    assert image.getpixel(d5) == MARK and image.getpixel(d4) != MARK


def test_flowerfield_text_has_board_legend_and_lives():
    text = write("flowerfield", ff_data())
    assert "C   .  .  . [Y] .  .  . " in text
    assert "D   .  .  .  R [G] .  . " in text
    assert "Flowers: R red, G green, Y yellow" in text
    assert "Bob to move (lives: Ann 3, Bob 3)" in text


def test_clock_line_shows_limits_reserves_and_extensions():
    from datetime import datetime, timedelta, timezone

    start = datetime(2026, 1, 1, 10, 0, tzinfo=timezone.utc)
    config = Config("flowerfield", ("Ann", "Bob"), variant="grunkle")
    actions = [Action("Ann", {"plant": ["red D5"]}, start), Action("GM", {"extend": 30}, start),
               Action("Bob", {"plant": ["blue D3"]}, start + timedelta(seconds=100))]
    game = get_game("flowerfield")
    extended = write("flowerfield", game.render_data(replay(config, actions[:2]).state))
    assert ("Clock: 1 min a turn (+1 min for a challenge); reserve Ann 5 min, Bob 5 min; the GM gave Bob 30 s "
            "more.") in extended
    text = write("flowerfield", game.render_data(replay(config, actions).state))
    # 100 s against 60 + 30: 10 s over, charged as one 30-second step of Bob's 5 minutes; the extension was for
    # Bob's turn only, so it is gone from the clock line once he has moved
    assert "Clock: 1 min a turn (+1 min for a challenge); reserve Ann 5 min, Bob 4 min 30 s.\n" in text
    untimed = Config("takebacktoe", ("Red", "Green"), options={"dice": "gm", "clock": "off"})
    assert "Clock" not in write("takebacktoe", get_game("takebacktoe").render_data(replay(untimed, []).state))


def test_takebacktoe_text_shows_turns_skipped_automatically():
    """D3.2: a roll no stack can serve skips the turn at once; the next player's board says so (engine dice)."""
    from dataclasses import replace

    from pbem.dm.base import Action, Config, get_game
    from pbem.render.dm import write

    game = get_game("takebacktoe")
    state = replace(game.new_state(Config("takebacktoe", ("Red", "Green"), options={"dice": "gm"})),
                    stacks=(1, 2, 0, 0, 2, 2, 2, 2, 1, 2, 0, 0))
    for action in (Action("GM", {"roll": 1}), Action("Red", {"move": "A1-B1"}), Action("GM", {"roll": 5}),
                   Action("GM", {"roll": 6})):
        state = game.apply(state, action)
    text = write("takebacktoe", game.render_data(state))
    # Green's 5 and Red's 6 both skipped; Red's skip is the last turn, Green's is listed
    assert "Last: Red rolled 6 and had to skip." in text
    assert "Skipped automatically: Green rolled 5 (no stack of 5)." in text
