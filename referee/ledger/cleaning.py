"""Text and numbers typed by people, checked before anything is stored: names, a table's name,
a reason, a hand number. Each refusal is an :class:`InvalidInput` with a sentence and a field."""

from __future__ import annotations

from referee import inputs
from referee.rules.errors import InvalidInput
from referee.rules.text import N_, Text

NAME_MAX = 40
TABLE_NAME_MAX = 120
REASON_MAX = 200


def printable(text: str, *, field: str) -> str:
    """Refuse control characters (a NUL would reach PostgreSQL, which rejects it with a 500),
    and drop the bidirectional ones (they would turn the text around them; see referee.inputs)."""
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in text):
        raise InvalidInput(Text(N_("Text cannot contain control characters.")), field=field)
    return inputs.strip_bidi(text)


def clean_name(raw: object, *, field: str) -> str:
    if isinstance(raw, str):
        raw = inputs.strip_bidi(raw)
    if not isinstance(raw, str) or not raw.strip():
        raise InvalidInput(Text(N_("Each player needs a name.")), field=field)
    printable(raw.replace("\t", " ").replace("\n", " ").replace("\r", " "), field=field)
    name = " ".join(raw.split())
    if len(name) > NAME_MAX:
        raise InvalidInput(Text(N_("A name has at most %(max)s letters."), max=NAME_MAX), field=field)
    return name


def clean_title(name: object) -> str:
    """A table's name, spaces folded ("" when none)."""
    if name is not None and not isinstance(name, str):
        raise InvalidInput(Text(N_("The table's name must be text.")), field="name")
    title = printable(" ".join((name or "").split()), field="name")
    if len(title) > TABLE_NAME_MAX:
        raise InvalidInput(Text(N_("The table's name has at most %(max)s letters."), max=TABLE_NAME_MAX), field="name")
    return title


def clean_reason(reason: object) -> str:
    if not isinstance(reason, str):
        raise InvalidInput(Text(N_("The reason must be text.")), field="reason")
    reason = printable(" ".join(reason.split()), field="reason")
    if len(reason) > REASON_MAX:
        raise InvalidInput(Text(N_("The reason has at most %(max)s characters."), max=REASON_MAX), field="reason")
    return reason


def whole_number(value: object, *, field: str, sentence: str, minimum: int = 1) -> int:
    # true == 1 and 1.0 == 1 in Python; a hand number must really be an integer.
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise InvalidInput(Text(sentence), field=field)
    return value
