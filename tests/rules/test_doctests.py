"""Doctests on every module of referee.rules run in the suite: the examples in the docstrings stay true."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import referee.rules

MODULES = sorted(["referee.rules", *(f"referee.rules.{m.name}" for m in pkgutil.iter_modules(referee.rules.__path__))])

#: Helpers the tests keep for themselves that carry worked examples too.
TEST_HELPERS = ["tests.rules.koziri_game"]


@pytest.mark.parametrize("name", MODULES + TEST_HELPERS)
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, raise_on_error=False, verbose=False)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"


def test_the_public_rules_functions_have_doctests() -> None:
    """The worked examples live in docstrings too: at least the rule text's Solo Nove and the
    fewest-transfers example must be there and run."""
    finder = doctest.DocTestFinder()
    counts = {
        name: sum(len(t.examples) for t in finder.find(importlib.import_module(name)))
        for name in ("referee.rules.jubileu", "referee.rules.settle")
    }
    assert counts["referee.rules.jubileu"] >= 2
    assert counts["referee.rules.settle"] >= 1
    assert "referee.rules.jubileu" in MODULES and "referee.rules.settle" in MODULES
