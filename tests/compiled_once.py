"""What every test's app would compile again, compiled once per test session.

Every test builds its own app, and an app compiles its code twice over, the same for every app:

- Building one was four fifths werkzeug compiling, for each of the app's URL rules, two small
  Python functions that build its URLs (``Rule._compile_builder``: an AST walked and handed to
  ``compile``). Their code follows from the rule's text, its defaults and whether unknown
  arguments are appended, and reaches the rule only through its first argument (the rule it is
  bound to). So the session keeps each one it compiled and hands it to the next rule that would
  compile the same. Should werkzeug change that private method, nothing is shared and the tests
  only run slower.
- Its first page then compiled each Jinja template it used, nearly half of a page test's time.
  Jinja's bytecode cache, keyed on the template's name and a checksum of its source, lets every
  app load the code the first one compiled (all the tests' apps configure Jinja alike).

Only the tests do this; the app compiles each once per process anyway.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any

from flask import Flask
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
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
    Rule._compile_builder = shared  # type: ignore[method-assign,assignment]


def _key(rule: Rule, append_unknown: bool) -> Hashable:
    """Everything the compiled builder's code depends on: the rule's parts (``_trace``, its
    static text and variable names, domain first), each default and, for a variable with a
    default, the text its converter gives it (compiled in as a constant)."""
    defaults: Mapping[str, Any] = rule.defaults or {}
    trace = tuple(getattr(rule, "_trace", ()))
    constants = tuple(
        (name, rule._converters[name].to_url(defaults[name])) for dynamic, name in trace if dynamic and name in defaults
    )
    return (rule.rule, trace, tuple(defaults), constants, append_unknown)


class _SessionTemplates(BytecodeCache):
    """Jinja's compiled templates kept in memory for the session, for every app."""

    def __init__(self) -> None:
        self.code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        if bucket.key in self.code:
            bucket.bytecode_from_string(self.code[bucket.key])

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.code[bucket.key] = bucket.bytecode_to_string()


_TEMPLATES = _SessionTemplates()


def share_compiled_templates(app: Flask) -> Flask:
    """Let ``app`` load the templates another test's app compiled (answers ``app``)."""
    app.jinja_env.bytecode_cache = _TEMPLATES
    return app
