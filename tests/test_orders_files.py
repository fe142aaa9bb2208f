"""Order files (DESIGN.md "Orders"): every problem at once with file, line and field; hostile input refused."""
from __future__ import annotations

import pytest

from pbem.formats.orders import order_template, parse_orders
from pbem.formats.yamlfile import FormatError

GOOD = """game: geeko-2026
turn: 3
player: alice
robots:
  Zapper:  {program: [FWD2, RT90, 540, FWD1#500]}
  Spanner: {program: [FWD3, LF90, UTRN, RVS1]}
reboot: [Spanner]
"""


def problems(text) -> list[str]:
    with pytest.raises(FormatError) as err:
        parse_orders(text, "orders.yaml")
    return [str(p) for p in err.value.problems]


def test_a_good_file_reads_as_given():
    order = parse_orders(GOOD, "orders.yaml")
    assert (order.game, order.turn, order.player) == ("geeko-2026", 3, "alice")
    assert order.submission.programs == {"Zapper": ["FWD2", "RT90", 540, "FWD1#500"],
                                         "Spanner": ["FWD3", "LF90", "UTRN", "RVS1"]}
    assert order.submission.reboot == ["Spanner"]


def test_a_pasted_turn_sheet_is_read_from_the_game_line_with_the_file_s_line_numbers():
    text = "Dear GM,\nhere are my orders:\n\n" + GOOD.replace("turn: 3", "turn: three")
    assert problems(text) == ["orders.yaml:5: turn: must be a whole number"]


def test_a_mail_signature_after_the_orders_is_ignored():
    order = parse_orders(GOOD + "-- \nAlice\nSent from my phone: {not yaml\n", "mail")
    assert order.submission.reboot == ["Spanner"]


def test_every_structural_problem_is_reported_at_once():
    text = "game: g\nplayer: [a]\ncolour: red\nrobots:\n  Zapper: {program: FWD1, speed: 3}\noption_hp: lots\n"
    assert problems(text) == [
        "orders.yaml:3: colour: unknown field (expected game, turn, player, robots, reboot, option_hp)",
        "orders.yaml:2: player: must be a name",
        "orders.yaml:1: turn: missing",
        "orders.yaml:5: robots.Zapper.speed: unknown field (expected program)",
        "orders.yaml:5: robots.Zapper.program: must be a list of cards",
        "orders.yaml:6: option_hp: must be a whole number",
    ]


@pytest.mark.parametrize("data, reason", [
    (b"game: [unclosed\n", "a `]` is missing"),
    (b"game: !!python/object:os.system x\n", "YAML tags are not accepted"),
    (b"a: &x [1]\nb: *x\n", "anchors and aliases are not accepted"),
    (b"\x00\x01\x02binary", "binary data"),
    (b"game: caf\xe9\n", "not UTF-8"),
    (b"game: g\n" + b"#" * 1_000_001, "the limit is 1000000"),
    (b"- just\n- a list\n", "an order file is a mapping"),
])
def test_hostile_or_broken_input_is_refused_with_a_reason(data, reason):
    found = problems(data)
    assert len(found) == 1 and reason in found[0], found


def test_an_alias_bomb_is_refused_before_it_is_expanded():
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n" for i in range(20))
    assert "anchors and aliases" in problems(bomb)[0]


def test_the_template_is_a_valid_order_file_with_empty_programs_even_for_names_yaml_would_misread():
    order = parse_orders(order_template("yes", 2, "on", ["123", "B-2"]), "t.yaml")
    assert (order.game, order.turn, order.player) == ("yes", 2, "on")
    assert order.submission.programs == {"123": [], "B-2": []}


def test_a_name_is_written_as_pyyaml_writes_it_with_or_without_pyyaml():
    """#36: `yaml_scalar` writes a plain word without loading PyYAML (a due tick writes every robot's name); every
    word of up to three characters from letters that make YAML's booleans and nulls, digits and punctuation, and
    every spelling of those words, comes out as PyYAML's `safe_dump` writes it."""
    import itertools

    import yaml

    from pbem.formats.orders import yaml_scalar

    words = ["yes", "no", "true", "false", "on", "off", "null", "y", "n", "Rusty", "robot-1", "R2_D2", "x" * 300]
    spellings = {"".join(c) for w in words[:7] for c in itertools.product(*[(ch, ch.upper()) for ch in w])}
    alphabet = "yYnNoOfFtTeEsSlLuU09_-.: ~#é"
    short = {"".join(c) for n in range(1, 4) for c in itertools.product(alphabet, repeat=n)}
    for name in [*words, *spellings, *short]:
        assert yaml_scalar(name) == yaml.safe_dump(name, width=1000).split("\n")[0], name


def test_a_sheets_builder_reads_option_hp_as_yaml_reads_it_with_or_without_pyyaml():
    """#36: the order builder's `option_hp` comes from the pre-filled order file; pbem's own line is read without
    loading PyYAML, any other file as YAML."""
    import yaml

    from pbem.formats.orders import order_template
    from pbem.render.sheet import _option_hp

    texts = [order_template("halls", 2, player, ["Rusty", "yes"], option_hp=hp, secret=secret)
             for player in ("ann", "option_hp") for hp in (False, True) for secret in (None, "s3cret")]
    texts += ["game: x\noption_hp: 07\n", "game: x\noption_hp: 6\noption_hp: 9\n", "option_hp: 12\n",
              "game: x\nnotes: |\n  option_hp: 5\n", "game: x\noption_hp: ~\n", "option_hp: 6  # six\n"]
    for text in texts:
        assert _option_hp(text) == (yaml.safe_load(text) or {}).get("option_hp"), text
