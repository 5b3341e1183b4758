"""A hand is called by one number everywhere: its place on the table among the hands that count
(1, 2, 3… in play order), whatever undos, redos, voids, corrections and confirmations happened.
The stored number stays the hand's id in links and in the API's ``number``; no page, flash,
refusal or ``display_number`` ever shows it in place of the place.

The property test plays random sequences on a two-key Jubileu table from two phones (the owner's
and a scorer's) and keeps its own list of the places, the oracle every shown number is held to.
"""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import dataclass, field
from html import unescape
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.hypothesis_settings import VERY_SLOW

from .api_support import API, create_table, get_table

_KEYS = itertools.count()


def english(client: FlaskClient) -> FlaskClient:
    client.set_cookie("lang", "en")
    return client


def _phones(app: Flask) -> tuple[dict[str, Any], dict[str, FlaskClient]]:
    """A two-key table, its owner's phone "a" and a scorer's phone "b" (through a scoring link)."""
    table = create_table(app.test_client(), two_key=True, language="en")
    tid = table["id"]
    a = english(app.test_client())
    assert a.post(f"/t/{tid}/scorer", data={"token": table["token"]}).status_code == 302
    html = a.post(f"/t/{tid}/share/link").get_data(as_text=True)
    link = unescape(re.search(r"data-scoring-link>([^<]+)<", html).group(1)).strip()  # type: ignore[union-attr]
    b = english(app.test_client())
    assert b.get("/j/" + link.rsplit("/j/", 1)[1]).status_code == 302
    return table, {"a": a, "b": b}


def _said(html: str) -> list[str]:
    """What the page says in flashes and in the bar under the title."""
    found = re.findall(r'class="flash flash-\w+"[^>]*>([^<]*)<', html)
    found += re.findall(r'<span role="status">([^<]*)</span>', html)
    return [" ".join(unescape(text).split()) for text in found]


def _heads(html: str) -> list[tuple[int, int | None]]:
    """Each listed hand: its stored number (its id) and the number its head shows (None: none)."""
    heads = re.findall(
        r'<li class="hand[^"]*" id="hand-(\d+)">\s*<div class="hand-head">\s*(?:<span class="hand-n">Hand (\d+)</span>)?',
        html,
    )
    return [(int(stored), int(shown) if shown else None) for stored, shown in heads]


@dataclass
class Model:
    """The oracle: the live hands' stored numbers in play order, and what the phones hold."""

    slots: list[int] = field(default_factory=list)
    next_stored: int = 1
    by: dict[int, str] = field(default_factory=dict)  # stored number -> phone that recorded it
    corrections: set[int] = field(default_factory=set)
    confirmed: set[int] = field(default_factory=set)
    offer: dict[str, tuple[int, bool]] = field(default_factory=dict)  # phone -> (number, undone)

    def place(self, stored: int) -> int | None:
        return self.slots.index(stored) + 1 if stored in self.slots else None

    def store(self, phone: str, *, at: int | None = None) -> int:
        number = self.next_stored
        self.next_stored += 1
        self.by[number] = phone
        if at is None:
            self.slots.append(number)
        else:
            self.slots[at] = number
            self.corrections.add(number)
        return number


class Play:
    """Drives the two phones through the pages, checking each answer against the model."""

    def __init__(self, app: Flask) -> None:
        self.table, self.phones = _phones(app)
        self.tid = self.table["id"]
        self.api = app.test_client()
        self.m = Model()

    def _post(self, phone: str, url: str, data: dict[str, str] | None = None) -> str:
        response = self.phones[phone].post(url, data=data or {}, follow_redirects=True)
        assert response.status_code == 200, response.get_data(as_text=True)[:300]
        return response.get_data(as_text=True)

    def _draft(self, **fields: Any) -> dict[str, str]:
        return {"d": json.dumps({"ultima": "ouros", "key": f"k{next(_KEYS)}", **fields}), "all_pass": "1"}

    def save(self, phone: str) -> None:
        html = self._post(phone, f"/t/{self.tid}/hand/all-pass", self._draft(n=self.m.next_stored))
        number = self.m.store(phone)
        self.m.offer[phone] = (number, False)
        assert f"Hand {self.m.place(number)} recorded." in _said(html)

    def undo(self, phone: str) -> None:
        number, undone = self.m.offer.get(phone, (0, True))
        if undone or number != self.m.next_stored - 1 or number not in self.m.slots or number in self.m.confirmed:
            return
        place = self.m.place(number)
        html = self._post(phone, f"/t/{self.tid}/hands/{number}/undo")
        self.m.slots.remove(number)
        self.m.offer[phone] = (number, True)
        assert f"Hand {place} undone." in _said(html)
        assert f"Redo hand {place}" in html

    def redo(self, phone: str) -> None:
        number, undone = self.m.offer.get(phone, (0, False))
        if not undone or number != self.m.next_stored - 1:
            return
        html = self._post(phone, f"/t/{self.tid}/hands/{number}/redo")
        restored = self.m.store(phone)
        self.m.offer[phone] = (restored, False)
        assert f"Hand {self.m.place(restored)} is back." in _said(html)

    def void(self, pick: int) -> None:
        if not self.m.slots:
            return
        number = self.m.slots[pick % len(self.m.slots)]
        place = self.m.place(number)
        html = self._post("a", f"/t/{self.tid}/hands/{number}/void", {"reason": "misdeal"})
        self.m.slots.remove(number)
        assert f"Hand {place} is void. Balances and the deal were recomputed." in _said(html)

    def correct(self, phone: str, pick: int) -> None:
        if not self.m.slots:
            return
        at = pick % len(self.m.slots)
        old = self.m.slots[at]
        draft = self._draft(ultima="copas", n=self.m.next_stored, replaces=old)
        html = self._post(phone, f"/t/{self.tid}/hand/all-pass", {**draft, "reason": "wrong suit"})
        self.m.store(phone, at=at)
        assert f"Hand {at + 1} was corrected." in _said(html)

    def confirm(self, phone: str, pick: int) -> None:
        waiting = [n for n in self.m.slots if n not in self.m.confirmed and self.m.by[n] != phone]
        if not waiting:
            return
        number = waiting[pick % len(waiting)]
        html = self._post(phone, f"/t/{self.tid}/hands/{number}/confirm")
        self.m.confirmed.add(number)
        assert f"Hand {self.m.place(number)} confirmed." in _said(html)

    def stale(self, phone: str, back: int) -> None:
        """A phone saves a hand it started before other writes: refused, naming places."""
        if self.m.next_stored == 1:
            return
        expected = max(1, self.m.next_stored - 1 - back % self.m.next_stored)
        response = self.phones[phone].post(f"/t/{self.tid}/hand/all-pass", data=self._draft(n=expected))
        assert response.status_code == 409
        html = " ".join(unescape(response.get_data(as_text=True)).split())
        taken = next((n for n in sorted(self.m.slots) if n >= expected and n not in self.m.corrections), None)
        following = len(self.m.slots) + 1
        if taken is not None:
            sentence = f"Hand {self.m.place(taken)} was already recorded by another phone; the next hand is number {following}."
        else:
            sentence = f"The table changed on another phone meanwhile; the next hand is number {following}."
        assert sentence in html, html[:2000]
        assert _heads(html)[:1] == ([(taken, self.m.place(taken))] if taken is not None else [])

    def check(self) -> None:
        """Every page and the API show each hand's place, and the next hand's."""
        for url in (f"/t/{self.tid}", f"/t/{self.tid}/history", f"/w/{self.tid}"):
            html = self.phones["a"].get(url).get_data(as_text=True)
            for stored, shown in _heads(html):
                assert shown == self.m.place(stored), (url, stored, shown, self.m.slots)
        page = self.phones["b"].get(f"/t/{self.tid}").get_data(as_text=True)
        assert f'<h2 id="next-h">Hand {len(self.m.slots) + 1}</h2>' in page
        hands = get_table(self.api, self.tid)["hands"]
        assert {h["number"]: h["display_number"] for h in hands} == {
            n: self.m.place(n) for n in range(1, self.m.next_stored)
        }
        for n in range(1, self.m.next_stored):
            assert self.api.get(f"{API}/tables/{self.tid}/hands/{n}").get_json()["display_number"] == self.m.place(n)


STEPS = st.lists(
    st.tuples(
        st.sampled_from(["save", "save", "undo", "redo", "void", "correct", "confirm", "stale"]),
        st.sampled_from(["a", "b"]),
        st.integers(0, 20),
    ),
    min_size=1,
    max_size=10,
)


@settings(VERY_SLOW, suppress_health_check=list(HealthCheck), deadline=None, database=None)
@given(steps=STEPS)
def test_every_number_shown_is_the_hand_s_place(app: Flask, steps: list[tuple[str, str, int]]) -> None:
    play = Play(app)
    for kind, phone, pick in steps:
        if kind == "save":
            play.save(phone)
        elif kind in ("undo", "redo"):
            getattr(play, kind)(phone)
        elif kind == "stale":
            play.stale(phone, pick)
        elif kind == "void":
            play.void(pick)
        else:
            getattr(play, kind)(phone, pick)
        play.check()


def test_confirming_names_the_place_not_the_stored_number(app: Flask) -> None:
    """Hand 2 was corrected and hand 1 undone and redone: confirming the hand in the second
    place says "Hand 2 confirmed.", though it is stored as hand 4."""
    play = Play(app)
    play.save("a")
    play.save("a")
    play.correct("a", 1)  # stored 3 stands in place 2
    play.undo("a")  # nothing: a correction offers no undo
    play.save("a")
    play.undo("a")
    play.redo("a")  # stored 5 in place 3
    play.confirm("b", 1)  # stored 3, place 2
    assert play.m.slots == [1, 3, 5] and 3 in play.m.confirmed
    play.check()


def test_the_phone_that_lost_the_race_reads_the_real_places(app: Flask) -> None:
    """Hand 3 was voided: the other phone's hand took place 3, so the loser reads "Hand 3 was
    already recorded…; the next hand is number 4", not the stored 4 and 5."""
    play = Play(app)
    for _ in range(3):
        play.save("a")
    play.void(2)
    started = play.m.next_stored  # phone b starts hand 3 (stored 4) here
    play.save("a")
    response = play.phones["b"].post(f"/t/{play.tid}/hand/all-pass", data=play._draft(n=started))
    assert response.status_code == 409
    html = " ".join(unescape(response.get_data(as_text=True)).split())
    assert "Hand 3 was already recorded by another phone; the next hand is number 4." in html
    assert "Replace hand 3 with mine" in html
