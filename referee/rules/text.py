"""Translatable sentences without a translation library.

The rules package may not import Flask-Babel, yet every sentence it produces (an error, a line of
a breakdown) must reach the player in the table's language. So the engine builds :class:`Text`
values: an English msgid marked with :func:`N_` (so ``pybabel extract -k N_`` finds it) plus its
parameters. The web layer renders them with the active catalogue; ``str()`` renders English.
Parameters that are themselves :class:`Text` (a suit's name, say) are translated too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

Translate = Callable[[str], str]


def N_(msgid: str) -> str:
    """Mark a string for extraction; translation happens later, in the web layer."""
    return msgid


def _identity(msgid: str) -> str:
    return msgid


@dataclass(frozen=True)
class Text:
    """A sentence waiting for a language: ``Text(N_("%(name)s passed."), name="Ana")``."""

    msgid: str
    params: Mapping[str, object] = field(default_factory=dict)

    def __init__(self, msgid: str, /, **params: object) -> None:
        object.__setattr__(self, "msgid", msgid)
        object.__setattr__(self, "params", MappingProxyType(dict(params)))

    def render(self, translate: Translate = _identity) -> str:
        """The sentence in the language of ``translate`` (English when none is given)."""
        if not self.params:
            return translate(self.msgid)
        values = {
            key: value.render(translate) if isinstance(value, Text) else value
            for key, value in self.params.items()
        }
        return translate(self.msgid) % values

    def __str__(self) -> str:
        return self.render()


def join_names(names: list[str] | tuple[str, ...]) -> str:
    """"Ana", "Ana e Bia"-style lists are language-specific; the engine only uses commas."""
    return ", ".join(names)


def text_to_json(text: Text) -> dict[str, object]:
    """A language-neutral form for storage: the msgid and its (possibly nested) parameters."""
    return {
        "msgid": text.msgid,
        "params": {k: text_to_json(v) if isinstance(v, Text) else v for k, v in text.params.items()},
    }


def text_from_json(raw: object) -> Text:
    """The inverse of :func:`text_to_json`; a plain string becomes a parameterless Text."""
    if isinstance(raw, str):
        return Text(raw)
    if not isinstance(raw, dict) or not isinstance(raw.get("msgid"), str):
        raise ValueError(f"not a stored text: {raw!r}")
    params = raw.get("params") or {}
    assert isinstance(params, dict)
    return Text(
        raw["msgid"],
        **{k: text_from_json(v) if isinstance(v, dict) else v for k, v in params.items()},
    )
