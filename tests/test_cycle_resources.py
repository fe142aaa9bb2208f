"""rooms/, decks/, templates/, turns/ are found in a checkout and in an installed wheel (pbem/_data/)."""
from __future__ import annotations

import pytest

from pbem import resources


def test_a_checkout_finds_the_top_level_folders(repo_root):
    assert resources.resource_dir("decks") == repo_root / "decks"
    assert resources.resource_path("decks/geeko.yaml").is_file()


def test_an_installed_package_finds_its_own_copy_first(tmp_path, monkeypatch):
    package = tmp_path / "site-packages" / "pbem"
    (package / "_data" / "decks").mkdir(parents=True)
    (package / "_data" / "decks" / "standard.yaml").write_text("order: shuffled\n")
    monkeypatch.setattr(resources, "_PACKAGE", package)
    assert resources.resource_dir("decks") == package / "_data" / "decks"
    assert resources.find_file("decks/standard.yaml", tmp_path) == package / "_data" / "decks" / "standard.yaml"
    with pytest.raises(FileNotFoundError, match="the bundled folder rooms/ is missing"):
        resources.resource_dir("rooms")


def test_a_path_next_to_the_base_wins_over_the_bundled_one(tmp_path):
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "geeko.yaml").write_text("order: preset\n")
    assert resources.find_file("decks/geeko.yaml", tmp_path) == tmp_path / "decks" / "geeko.yaml"
    with pytest.raises(FileNotFoundError, match="nothing.yaml: no such file"):
        resources.find_file("decks/nothing.yaml", tmp_path)
