"""What a ledger write refuses besides the engine's :class:`~referee.rules.errors.RulesError`."""

from __future__ import annotations

from referee.rules.text import Text


class Conflict(Exception):
    """The write lost a race or targets a finished table (HTTP 409). Carries a sentence;
    ``current`` is the latest stored hand (the API's ``current_number``), ``taken`` the stored
    number of the hand the sentence names as recorded first by another phone (the page shows it)."""

    def __init__(self, text: Text, *, current: int | None = None, taken: int | None = None) -> None:
        super().__init__(str(text))
        self.text = text
        self.current = current
        self.taken = taken


class NotFound(Exception):
    """No such table or hand (HTTP 404)."""
