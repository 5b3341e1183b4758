"""Build step for `python -m build`: everything else about the package is in pyproject.toml.

An installed wheel has no Makefile and no checkout around it, so the build does two things
`make` does for a checkout: it compiles the gettext catalogues (the .mo files are build
products, never in git), and it copies the top-level templates/ and static/ folders into the
package, where create_app looks for them first. The folders stay at the top of the repository
because the tests, tools and docs name them there.
"""

from __future__ import annotations

import os
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from setuptools import setup
from setuptools.command.build_py import build_py

WEB_FOLDERS = ("templates", "static")
CATALOGUES = "referee/translations/*/LC_MESSAGES/*.po"


class BuildPyWithWebFiles(build_py):
    """The package's own files, plus the compiled catalogues and the web folders."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return  # a checkout serves its own folders, and `make translations` compiles in place
        for folder in WEB_FOLDERS:
            self.copy_tree(folder, os.path.join(self.build_lib, "referee", folder))
        for po in sorted(Path().glob(CATALOGUES)):
            self.compile_catalogue(po, Path(self.build_lib) / po.with_suffix(".mo"))

    def compile_catalogue(self, po: Path, mo: Path) -> None:
        """What `pybabel compile --use-fuzzy` (the Makefile) makes, for one catalogue."""
        with po.open("rb") as source:
            catalogue = read_po(source)
        mo.parent.mkdir(parents=True, exist_ok=True)
        with mo.open("wb") as target:
            write_mo(target, catalogue, use_fuzzy=True)

    def get_source_files(self) -> list[str]:
        """The sdist must carry the web folders too: a wheel is built from it."""
        web = (str(path) for folder in WEB_FOLDERS for path in sorted(Path(folder).rglob("*")) if path.is_file())
        return [*super().get_source_files(), *web]


setup(cmdclass={"build_py": BuildPyWithWebFiles})
