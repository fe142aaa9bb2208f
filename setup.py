"""Builds copy the top-level data folders into the package, so an installed wheel has them.

Everything else about the package is in pyproject.toml.
"""
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

DATA_FOLDERS = ("rooms", "decks", "templates", "turns", "docs")  # pbem.resources.BUNDLED


class BuildWithData(build_py):
    def run(self):
        super().run()
        if self.editable_mode:
            return  # an editable install reads the checkout's folders directly
        for name in DATA_FOLDERS:
            source = Path(name)
            if source.is_dir():
                target = Path(self.build_lib) / "pbem" / "_data" / name
                shutil.rmtree(target, ignore_errors=True)
                shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


setup(cmdclass={"build_py": BuildWithData})
