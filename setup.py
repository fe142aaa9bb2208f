"""Builds copy the top-level data folders into the package, so an installed wheel has them, and compile the
solvers' and the pictures' C extensions (`pip install` runs this; in a checkout, `pip install -e .`).

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


# -O3 after Python's own flags, so it wins; no -march=native: a wheel built here must run on other machines.
EXTENSIONS = [
    Extension("pbem.dm.gyulbot._search", ["pbem/dm/gyulbot/_search.c"], extra_compile_args=["-O3", "-std=c99"]),
    Extension("pbem.dm.icemaze._search", ["pbem/dm/icemaze/_search.c"], extra_compile_args=["-O3"]),
    Extension("pbem.render._octree", ["pbem/render/_octree.c"], extra_compile_args=["-O3", "-std=c99"]),
]

setup(cmdclass={"build_py": BuildWithData}, ext_modules=EXTENSIONS)
