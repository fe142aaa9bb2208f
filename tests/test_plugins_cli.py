"""RULES G9 through the command line: a mechanism a GM adds without editing pbem, from the campaign folder's
`mechanisms/` and from an installed package's entry point (group `pbem.mechanisms`), is seen by `room check`,
`scenario check`, `game new`/`turn process` and the pictures. Each run is a fresh `pbem` process, as a GM's is."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPINNER = textwrap.dedent('''\
    """A spinner turns the robots on it to face south in its stages (phase: gears)."""
    from typing import ClassVar

    from pbem.engine.events import Rotated
    from pbem.engine.mechanism import Field, Mechanism, register, stages


    @register
    class Spinner(Mechanism):
        type: ClassVar[str] = "spinner"
        phases: ClassVar[tuple] = ("gears",)
        fields: ClassVar[dict] = {"stages": Field(stages)}

        def act(self, ctx, phase, elements):
            for element in elements:
                if ctx.stage in element.get("stages"):
                    for robot in ctx.robots_at(element.at):
                        before = robot.facing
                        robot.facing = before.turned(2 - before.value)
                        ctx.emit(Rotated(ctx.stage, robot.name, before, robot.facing, "spinner", element.key))
    ''')
SCENARIO = textwrap.dedent("""\
    rules: [G9]
    title: a campaign's own spinner turns a robot south in its stage
    ruleset: geeko
    seed: 1
    room:
      name: Spin
      size: 5x5
      elements:
        - {type: spinner, at: r3c3, stages: [1]}
    robots:
      - {name: Red, at: r3c2, facing: E}
    programs: {Red: ["FWD1#500"]}
    expect:
      robots:
        Red: {at: r3c3, facing: S}
    """)


def pbem(folder: Path, *args: str, path: Path | None = None) -> subprocess.CompletedProcess:
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(map(str, [ROOT, *([path] if path else [])]))}
    for name in ("PBEM_DB", "PBEM_NOW", "PBEM_MAIL_CONFIG"):
        environment.pop(name, None)
    return subprocess.run([sys.executable, "-m", "pbem", *args], cwd=folder, env=environment, capture_output=True,
                          text=True, timeout=300)


def test_a_campaign_folders_mechanism_is_seen_by_room_check_scenarios_and_pictures(tmp_path):
    campaign = tmp_path / "campaign"
    (campaign / "mechanisms").mkdir(parents=True)
    (campaign / "mechanisms" / "spinner.py").write_text(SPINNER)
    (campaign / "spin.yaml").write_text(SCENARIO)
    room = "name: Spin\nsize: 5x5\nelements:\n  - {type: spinner, at: r3c3, stages: [1]}\n"
    (campaign / "room.yaml").write_text(room)
    assert pbem(campaign, "room", "check", "room.yaml").returncode == 0
    checked = pbem(campaign, "scenario", "check", "spin.yaml")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    drawn = pbem(campaign, "room", "render", "room.yaml", "--out", "room.png")
    assert drawn.returncode == 0 and (campaign / "room.png").stat().st_size > 0
    # without the folder the same room is refused: the kind comes from the campaign, not from pbem
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "room.yaml").write_text(room)
    refused = pbem(elsewhere, "room", "check", "room.yaml")
    assert refused.returncode == 1 and "unknown element type 'spinner'" in refused.stdout


def test_a_broken_plugin_is_named_not_a_traceback(tmp_path):
    (tmp_path / "mechanisms").mkdir()
    (tmp_path / "mechanisms" / "broken.py").write_text("raise RuntimeError('half written')\n")
    (tmp_path / "room.yaml").write_text("name: R\nsize: 5x5\nelements: []\n")
    result = pbem(tmp_path, "room", "check", "room.yaml")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert f"mechanism plug-in {tmp_path / 'mechanisms' / 'broken.py'}: RuntimeError: half written" in \
        result.stdout + result.stderr


def install_spinner(site: Path) -> None:
    """A tiny plug-in package as pip installs one: its code and a .dist-info naming the entry point."""
    (site / "pbem_spinner").mkdir(parents=True)
    (site / "pbem_spinner" / "__init__.py").write_text(SPINNER.replace("@register\n", ""))
    info = site / "pbem_spinner-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: pbem-spinner\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[pbem.mechanisms]\nspinner = pbem_spinner:Spinner\n")


def test_an_installed_packages_entry_point_is_loaded(tmp_path):
    """A tiny plug-in package as pip installs one (its code and a .dist-info naming the entry point) on the
    path of the `pbem` process: the entry point names the class, which is registered."""
    site = tmp_path / "site-packages"
    install_spinner(site)
    (tmp_path / "spin.yaml").write_text(SCENARIO)
    installed = pbem(tmp_path, "scenario", "check", "spin.yaml", path=site)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    assert pbem(tmp_path, "scenario", "check", "spin.yaml").returncode == 1  # not installed here


def test_a_plugin_that_registers_a_built_in_kind_is_refused_naming_its_file(tmp_path):
    """G9: a campaign's `pit` without `replaces: pit` stops the command, naming the file; with it, it is used."""
    (tmp_path / "mechanisms").mkdir()
    plugin = tmp_path / "mechanisms" / "softpit.py"
    plugin.write_text(SPINNER.replace('"spinner"', '"pit"'))
    (tmp_path / "room.yaml").write_text("name: R\nsize: 5x5\nelements:\n  - {type: pit, at: r3c3}\n")
    refused = pbem(tmp_path, "room", "check", "room.yaml")
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert f"mechanism plug-in {plugin}: ValueError: Spinner registers 'pit', a kind that exists already" in \
        refused.stdout + refused.stderr
    plugin.write_text(SPINNER.replace('"spinner"', '"pit"').replace(
        '    phases: ClassVar[tuple] = ("gears",)\n',
        '    phases: ClassVar[tuple] = ("gears",)\n    replaces: ClassVar[str] = "pit"\n'))
    accepted = pbem(tmp_path, "room", "check", "room.yaml")
    assert accepted.returncode == 1 and "stages" in accepted.stdout  # the spinner's fields now make a pit


def test_a_package_installed_after_a_run_that_found_none_is_loaded(tmp_path):
    """That no plug-in is installed is kept between runs (no scan of every distribution each run), but a package
    installed into a folder on the path afterwards is found by the next run: the kept finding is for the
    distributions as they were."""
    site = tmp_path / "site-packages"
    site.mkdir()
    (tmp_path / "spin.yaml").write_text(SCENARIO)
    assert pbem(tmp_path, "scenario", "check", "spin.yaml", path=site).returncode == 1  # no spinner yet
    install_spinner(site)
    installed = pbem(tmp_path, "scenario", "check", "spin.yaml", path=site)
    assert installed.returncode == 0, installed.stdout + installed.stderr
