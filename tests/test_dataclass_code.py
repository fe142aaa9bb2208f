"""The dataclasses' generated methods compiled once and kept in the cache folder (`pbem/cli/dataclass_code.py`,
#36): a class made from kept code is the class `dataclasses` makes, a changed class is compiled anew, a damaged
file costs only the compiling."""
from __future__ import annotations

import dataclasses
import marshal
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest
from cli_process import imported_by

from pbem.cli import dataclass_code
from pbem.cli.dataclass_code import KeptCode

ROOT = Path(__file__).resolve().parent.parent
ROBOT = '''
from dataclasses import dataclass

@dataclass(frozen=True)
class Robot:
    name: str
    damage: int = 0
'''


def made(kept: KeptCode, source: str, monkeypatch: pytest.MonkeyPatch) -> tuple[type, list[str]]:
    """The class `Robot` a module `robots` holding `source` defines with `kept` as dataclasses' exec, and the texts
    compiled meanwhile."""
    compiled: list[str] = []

    def counted(text: str, *args: object, **kwargs: object) -> object:
        compiled.append(text)
        return compile(text, *args, **kwargs)  # type: ignore[call-overload]

    robots = types.ModuleType("robots")  # dataclasses reads a class's module in sys.modules
    with monkeypatch.context() as patched:
        patched.setattr(dataclasses, "exec", kept.exec, raising=False)
        patched.setattr(dataclass_code, "compile", counted, raising=False)
        patched.setitem(sys.modules, "robots", robots)
        exec(compile(source, "robots.py", "exec", dont_inherit=True), robots.__dict__)  # annotations as types
    return robots.Robot, compiled


def test_a_dataclass_made_again_from_kept_code_compiles_nothing_and_behaves_as_before(tmp_path, monkeypatch):
    first = KeptCode(tmp_path)
    fresh, compiled = made(first, ROBOT, monkeypatch)
    first.write()
    again, recompiled = made(KeptCode(tmp_path), ROBOT, monkeypatch)
    assert len(compiled) == 6 and recompiled == []  # __init__, __repr__, __eq__, __hash__, __setattr__, __delattr__
    for robot in (fresh, again):
        one = robot("ann", 2)
        assert repr(one) == "Robot(name='ann', damage=2)" and one == robot("ann", 2) != robot("ann")
        assert hash(one) == hash(robot("ann", 2)) and robot("ben").damage == 0
        with pytest.raises(dataclasses.FrozenInstanceError):
            one.damage = 3
    assert set(marshal.loads((tmp_path / "robots").read_bytes())) == set(compiled)


def test_a_changed_dataclass_is_compiled_anew_and_its_file_keeps_only_the_texts_in_use(tmp_path, monkeypatch):
    kept = KeptCode(tmp_path)
    made(kept, ROBOT, monkeypatch)
    kept.write()
    changed = KeptCode(tmp_path)
    robot, compiled = made(changed, ROBOT.replace("damage: int = 0", "damage: int = 0\n    lives: int = 3"),
                           monkeypatch)
    changed.write()
    assert robot("ann").lives == 3 and compiled
    assert set(marshal.loads((tmp_path / "robots").read_bytes())) == set(changed.used["robots"])
    assert not set(kept.used["robots"]) <= set(changed.used["robots"])  # the old texts are gone


@pytest.mark.parametrize("damage", [b"", b"not marshal", marshal.dumps({"text": 3}), marshal.dumps([1, 2])])
def test_a_damaged_file_of_kept_code_is_compiled_again(tmp_path, monkeypatch, damage):
    (tmp_path / "robots").write_bytes(damage)
    kept = KeptCode(tmp_path)
    robot, compiled = made(kept, ROBOT, monkeypatch)
    kept.write()
    assert robot("ann", 1) == robot("ann", 1) and len(compiled) == 6
    assert len(marshal.loads((tmp_path / "robots").read_bytes())) == 6


def test_the_pbem_process_keeps_its_dataclasses_code_in_the_cache_folder_and_none_without_one(tmp_path):
    """The process keeps the engine's events (its ~30 frozen dataclasses) once it has run a command that loads them;
    PBEM_CACHE_DIR empty keeps nothing."""
    room = ROOT / "rooms" / "geeko" / "1-intake.yaml"
    for cache in (tmp_path / "cache", ""):
        run = subprocess.run([sys.executable, "-m", "pbem", "room", "check", str(room)], cwd=tmp_path,
                             capture_output=True, text=True, timeout=120,
                             env={**os.environ, "PYTHONPATH": str(ROOT), "PBEM_CACHE_DIR": str(cache)})
        assert run.returncode == 0, run.stderr
    [folder] = (tmp_path / "cache" / "dataclasses").iterdir()
    assert folder.name.startswith(sys.implementation.cache_tag)
    assert len(marshal.loads((folder / "pbem.engine.geometry").read_bytes())) >= 3
    assert sorted(path.name for path in tmp_path.iterdir()) == ["cache"]


def test_without_a_home_folder_for_the_cache_every_dataclass_is_compiled_as_before(monkeypatch):
    def homeless() -> Path:
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.setattr(dataclass_code, "cache_root", homeless)
    monkeypatch.delattr(dataclasses, "exec", raising=False)
    dataclass_code.keep_dataclass_code()
    assert not hasattr(dataclasses, "exec")


def test_finding_the_cache_folder_for_the_code_costs_help_no_hashing_and_no_temporary_files(tmp_path):
    """Every command asks for the cache folder first: `--help` must not pay for what only a write or a digest uses."""
    assert imported_by("--help", cwd=tmp_path) & {"hashlib", "tempfile"} == set()
