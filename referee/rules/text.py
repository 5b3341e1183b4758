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
NTranslate = Callable[[str, str, int], str]


def N_(msgid: str) -> str:
    """Mark a string for extraction; translation happens later, in the web layer."""
    return msgid


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a singular/plural pair for extraction (``pybabel extract -k NP_:1,2``)."""
    return singular, plural


def _identity(msgid: str) -> str:
    return msgid


def _english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


#: The longest text a sentence quotes in full (see Text.__init__).
QUOTE_MAX = 80


@dataclass(frozen=True)
class Text:
    """A sentence waiting for a language: ``Text(N_("%(name)s passed."), name="Ana")``.

    For a sentence that depends on a number, pass the pair from :func:`NP_` as ``plural`` and
    the number as the ``count`` parameter: ``Text(*NP_("%(count)s trick", "%(count)s tricks"),
    count=2)``.
    """

    msgid: str
    params: Mapping[str, object] = field(default_factory=dict)
    plural: str | None = None

    def __init__(self, msgid: str, plural: str | None = None, /, **params: object) -> None:
        object.__setattr__(self, "msgid", msgid)
        object.__setattr__(self, "plural", plural)
        # A sentence quotes what it refuses; a 20 KB "name" is quoted by its start only.
        params = {
            k: (v[: QUOTE_MAX - 1] + "…" if isinstance(v, str) and len(v) > QUOTE_MAX else v) for k, v in params.items()
        }
        object.__setattr__(self, "params", MappingProxyType(params))
        if plural is not None and not isinstance(params.get("count"), int):
            raise ValueError("a plural Text needs an integer count parameter")

    def render(self, translate: Translate = _identity, ntranslate: NTranslate = _english_plural) -> str:
        """The sentence in the language of ``translate`` (English when none is given)."""
        if self.plural is not None:
            count = self.params["count"]
            assert isinstance(count, int)
            template = ntranslate(self.msgid, self.plural, count)
        else:
            template = translate(self.msgid)
        if not self.params:
            return template
        values = {
            key: value.render(translate, ntranslate) if isinstance(value, Text) else value
            for key, value in self.params.items()
        }
        return template % values

    def __str__(self) -> str:
        return self.render()


def text_to_json(text: Text) -> dict[str, object]:
    """A language-neutral form for storage: the msgid and its (possibly nested) parameters."""
    out: dict[str, object] = {
        "msgid": text.msgid,
        "params": {k: text_to_json(v) if isinstance(v, Text) else v for k, v in text.params.items()},
    }
    if text.plural is not None:
        out["plural"] = text.plural
    return out


def text_from_json(raw: object) -> Text:
    """The inverse of :func:`text_to_json`; a plain string becomes a parameterless Text."""
    if isinstance(raw, str):
        return Text(raw)
    if not isinstance(raw, dict) or not isinstance(raw.get("msgid"), str):
        raise ValueError(f"not a stored text: {raw!r}")
    params = raw.get("params") or {}
    assert isinstance(params, dict)
    plural = raw.get("plural")
    return Text(
        raw["msgid"],
        plural if isinstance(plural, str) else None,
        **{k: text_from_json(v) if isinstance(v, dict) else v for k, v in params.items()},
    )
