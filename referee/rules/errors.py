"""Errors by kind, each carrying a sentence a player can act on.

The web and API layers map the kind to a status: :class:`InvalidInput` is a malformed request
(400), the others are well-formed records that break a rule (422). ``field`` points into the
posted record (``"auction[3]"``, ``"tricks.Ana"``) so a form can put the sentence where it belongs.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from .text import Text


class RulesError(ValueError):
    """Base class: a record the referee refuses. Nothing may be stored when one is raised."""

    code = "rules_error"

    def __init__(self, text: Text, *, field: str | None = None) -> None:
        super().__init__(str(text))
        self.text = text
        self.field = field


class InvalidInput(RulesError):
    """The input has the wrong shape: a missing field, a wrong type, an unknown option."""

    code = "invalid_input"


class UnknownGame(InvalidInput):
    """No game by that name."""

    code = "unknown_game"


class UnknownPlayer(RulesError):
    """A name that is not seated at the table."""

    code = "unknown_player"


class IllegalCall(RulesError):
    """A call the auction does not allow now (out of turn, too low, forbidden by a tier rule)."""

    code = "illegal_call"


class InconsistentHand(RulesError):
    """Details that contradict each other or the rules (tricks not adding up, a bad trump)."""

    code = "inconsistent_hand"


def reject_unknown_fields(
    raw: Mapping[str, object], known: Collection[str], sentence: str, *, field: str | None = None, **params: object
) -> None:
    """The shape check every record's parser makes: a key outside ``known`` is refused with
    ``sentence`` (a msgid naming the record, with ``%(name)s`` for the key and any ``params``),
    pointing at that key (under ``field`` for a part of a record, e.g. a Samba team).

    >>> reject_unknown_fields({"winner": "Ana", "looser": "Bia"}, {"winner", "loser"}, "A hand has no field called %(name)s.")
    Traceback (most recent call last):
    ...
    referee.rules.errors.InvalidInput: A hand has no field called looser.
    """
    for key in raw:
        if key not in known:
            raise InvalidInput(Text(sentence, name=str(key), **params), field=f"{field}.{key}" if field else str(key))
