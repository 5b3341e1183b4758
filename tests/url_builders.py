"""Werkzeug's URL builders compiled once per test session, not once per app.

Every test builds its own app, and building one was four fifths werkzeug compiling, for each of
the app's URL rules, two small Python functions that build its URLs (``Rule._compile_builder``:
an AST walked and handed to ``compile``). The function is the same for every app: its code
follows from the rule's text, its defaults and whether unknown arguments are appended, and it
reaches the rule only through its first argument (the rule it is bound to). So the session keeps
each one it compiled and hands it to the next rule that would compile the same.

Only the tests do this; the app compiles its rules once per process anyway. Should werkzeug
change that private method, nothing is shared and the tests only run slower.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from werkzeug.routing.rules import Rule

Builder = Callable[..., tuple[str, str]]


def share_compiled_builders() -> None:
    """Make ``Rule._compile_builder`` compile each distinct builder once (idempotent)."""
    compile_builder = getattr(Rule, "_compile_builder", None)
    if compile_builder is None or getattr(compile_builder, "shared", False):
        return
    compiled: dict[Hashable, Builder] = {}

    def shared(rule: Rule, append_unknown: bool = True) -> Builder:
        key = _key(rule, append_unknown)
        if key not in compiled:
            compiled[key] = compile_builder(rule, append_unknown)
        return compiled[key]

    shared.shared = True  # type: ignore[attr-defined]
    Rule._compile_builder = shared  # type: ignore[method-assign]


def _key(rule: Rule, append_unknown: bool) -> Hashable:
    """Everything the compiled builder's code depends on: the rule's parts (``_trace``, its
    static text and variable names, domain first), each default and, for a variable with a
    default, the text its converter gives it (compiled in as a constant)."""
    defaults: dict[str, Any] = rule.defaults or {}
    trace = tuple(getattr(rule, "_trace", ()))
    constants = tuple(
        (name, rule._converters[name].to_url(defaults[name])) for dynamic, name in trace if dynamic and name in defaults
    )
    return (rule.rule, trace, tuple(defaults), constants, append_unknown)
