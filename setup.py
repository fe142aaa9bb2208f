"""Builds copy the top-level data folders into the package, so an installed wheel has them, and compile the Gyulbot
solver's search (a C extension: `pip install` compiles it once, so no first use waits for a compiler).

Everything else about the package is in pyproject.toml.
"""
import shutil
from pathlib import Path

from setuptools import Extension, setup
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


SEARCH = Extension("pbem.dm.gyulbot._search", ["pbem/dm/gyulbot/_search.c"],
                   extra_compile_args=["-O3", "-std=c99"])  # portable: no -march=native in a wheel

setup(cmdclass={"build_py": BuildWithData}, ext_modules=[SEARCH])
