"""Loser Pays' web side: one question (who lost), the short-record flow's defaults."""

from __future__ import annotations

from referee.rules.text import N_
from referee.views.games.pages import GamePages
from referee.views.short_flow import ShortFlow, asked

from . import rules

FIELDS = (asked(rules.RECORD, "loser", label=N_("Loser"), question=N_("Who lost?")),)

REGISTRATION = GamePages(slug=rules.SLUG, flow=ShortFlow.for_game(rules.SLUG, FIELDS), rules_context=dict)
