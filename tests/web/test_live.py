"""Live pages (referee/views/live.py) and what two phones saving at once, or one phone saving
with a flaky connection, get from the server (referee/views/flow.py).

- ``/t/<id>/version`` answers the table's version with an ETag and 304 when nothing changed;
  every kind of write moves it on, so every watching phone redraws.
- The TV view renders for every game; the live pages carry ``data-live-version``.
- Two phones entering the same hand: the second gets 409 with the first one's hand shown and
  can replace it (a correction: voided with a reason) or save its own as the next hand;
  nothing is ever counted twice.
- The offline outbox's POST (``X-Referee-Outbox: 1``) answers JSON ``{location}``; the same
  body sent again stores one hand.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from html import unescape
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee import ledger
from tests.bench import hands as jubileu_hands
from tests.bench import quatrilho_hands, samba_hands

from .api_support import API, PLAYERS, all_pass_record, create_table, get_table, solo_record

OUTBOX = {"X-Referee-Outbox": "1"}


# --------------------------------------------------------------------------- helpers


def english(client: FlaskClient) -> FlaskClient:
    client.set_cookie("lang", "en")
    return client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def owner_phone(app: Flask, table: dict[str, Any]) -> FlaskClient:
    phone = english(app.test_client())
    assert phone.post(f"/t/{table['id']}/scorer", data={"token": table["token"]}).status_code == 302
    return phone


def scorer_phone(app: Flask, owner: FlaskClient, tid: str) -> FlaskClient:
    """Another phone, come in through a scoring link the owner made."""
    html = owner.post(f"/t/{tid}/share/link").get_data(as_text=True)
    found = re.search(r"data-scoring-link>([^<]+)<", html)
    assert found
    phone = english(app.test_client())
    assert phone.get("/j/" + unescape(found.group(1)).strip().rsplit("/j/", 1)[1]).status_code == 302
    return phone


def draft_in(html: str) -> str:
    found = re.search(r'name="d" value="([^"]*)"', html)
    assert found is not None, html[:500]
    return unescape(found.group(1))


def all_pass_draft(phone: FlaskClient, tid: str, ultima: str = "ouros") -> str:
    """The draft of the aces step (where "everybody passed" is offered), started now."""
    return draft_in(phone.get(f"/t/{tid}/hand", query_string={"ultima": ultima}).get_data(as_text=True))


def solo_draft(phone: FlaskClient, tid: str) -> str:
    """Walk the flow to the preview of a Solo Sete by the first speaker (9 tricks); the draft."""
    dealer = PLAYERS.index(get_table(phone, tid)["next_dealer"])
    seats = [(dealer + k) % len(PLAYERS) for k in range(1, len(PLAYERS) + 1)]  # in speaking order
    calls = [f"call:{seats[0]}:solo_sete"] + [f"call:{seat}:passo" for seat in seats[1:]]
    query: dict[str, str] = {}
    for step in ["ultima:copas", "aces:none", *calls, "trump:espadas"]:
        query = {
            "d": draft_in(phone.get(f"/t/{tid}/hand", query_string={**query, "action": step}).get_data(as_text=True))
        }
    tricks = {f"t{seat}": n for seat, n in zip(seats, ("9", "2", "1", ""))}
    html = phone.get(f"/t/{tid}/hand", query_string={**query, "action": "tricks", **tricks})
    page = html.get_data(as_text=True)
    assert f'action="/t/{tid}/hand"' in page and "preview-deltas" in page
    return draft_in(page)


def version(client: FlaskClient, tid: str) -> int:
    response = client.get(f"/t/{tid}/version")
    assert response.status_code == 200
    return int(response.get_json()["version"])


def stored(app: Flask, tid: str) -> list[tuple[int, bool]]:
    with app.app_context():
        return [(h.number, h.is_void) for h in ledger.all_hands(ledger.get_table(tid))]


# --------------------------------------------------------------------------- /version


def test_version_answers_with_an_etag_and_304_when_unchanged(app: Flask, client: FlaskClient) -> None:
    table = create_table(client)
    tid = table["id"]
    first = client.get(f"/t/{tid}/version")
    assert first.status_code == 200
    assert first.mimetype == "application/json"
    assert first.get_json() == {"version": 0}
    etag = first.headers["ETag"]
    assert etag.startswith('"') and etag.endswith('"')
    assert "no-cache" in first.headers["Cache-Control"]

    same = client.get(f"/t/{tid}/version", headers={"If-None-Match": etag})
    assert same.status_code == 304
    assert same.data == b""
    assert same.headers["ETag"] == etag
    assert client.get(f"/t/{tid}/version", headers={"If-None-Match": f'"other", {etag}'}).status_code == 304
    assert client.get(f"/t/{tid}/version", headers={"If-None-Match": "*"}).status_code == 304
    assert client.get(f"/t/{tid}/version", headers={"If-None-Match": '"v99-0"'}).status_code == 200

    client.post(f"{API}/tables/{tid}/hands", json=all_pass_record("Dani"), headers=bearer(table["token"]))
    moved = client.get(f"/t/{tid}/version", headers={"If-None-Match": etag})
    assert moved.status_code == 200
    assert moved.get_json() == {"version": 1}
    assert moved.headers["ETag"] != etag
    assert client.get(f"/t/{tid}/version", headers={"If-None-Match": moved.headers["ETag"]}).status_code == 304


def test_version_needs_no_token_and_knows_only_real_tables(client: FlaskClient) -> None:
    assert client.get("/t/nosuchtable/version").status_code == 404
    tid = create_table(client)["id"]
    assert english(client).get(f"/t/{tid}/version").status_code == 200


def _hand(app: Flask, s: dict[str, Any]) -> Any:
    dealer = get_table(s["api"], s["tid"])["next_dealer"]
    return s["api"].post(f"{API}/tables/{s['tid']}/hands", json=all_pass_record(dealer), headers=bearer(s["token"]))


WRITES: dict[str, Callable[[Flask, dict[str, Any]], Any]] = {
    "hand (API)": _hand,
    "hand (web)": lambda app, s: s["owner"].post(
        f"/t/{s['tid']}/hand/all-pass", data={"d": all_pass_draft(s["owner"], s["tid"]), "all_pass": "1"}
    ),
    "void (API)": lambda app, s: s["api"].post(
        f"{API}/tables/{s['tid']}/hands/1/void", json={"reason": "x"}, headers=bearer(s["token"])
    ),
    "void (web)": lambda app, s: s["owner"].post(f"/t/{s['tid']}/hands/1/void", data={"reason": "misdeal"}),
    "correction (API)": lambda app, s: s["api"].post(
        f"{API}/tables/{s['tid']}/hands",
        json={**all_pass_record("Dani"), "ultima": "copas", "replaces": 1, "reason": "suit"},
        headers=bearer(s["token"]),
    ),
    "correction (web)": lambda app, s: s["owner"].post(
        f"/t/{s['tid']}/hand",
        data={"d": draft_in(s["owner"].get(f"/t/{s['tid']}/hand?replaces=1").get_data(as_text=True)), "reason": "suit"},
    ),
    "two-key on": lambda app, s: s["owner"].post(f"/t/{s['tid']}/two-key", data={"on": "1"}),
    "two-key off": lambda app, s: s["owner"].post(f"/t/{s['tid']}/two-key", data={"on": "0"}),
    "confirm": lambda app, s: s["scorer"].post(f"/t/{s['tid']}/hands/1/confirm"),
    "dispute": lambda app, s: s["scorer"].post(f"/t/{s['tid']}/hands/1/dispute"),
    "last round": lambda app, s: s["owner"].post(f"/t/{s['tid']}/last-round", data={"on": "1"}),
    "options": lambda app, s: s["owner"].post(
        f"/t/{s['tid']}/options", data={"opt_starting_chips": "10", "opt_chip_value": "0"}
    ),
    "end": lambda app, s: s["owner"].post(f"/t/{s['tid']}/end", data={"confirm": "1"}),
}
NEEDS_A_HAND = {"void (API)", "void (web)", "correction (API)", "correction (web)", "confirm", "dispute"}


@pytest.mark.parametrize("kind", WRITES)
def test_every_kind_of_write_moves_the_version(app: Flask, kind: str) -> None:
    api = app.test_client()
    table = create_table(api, two_key=kind in ("confirm", "dispute", "two-key off"))
    owner = owner_phone(app, table)
    s = {
        "tid": table["id"],
        "token": table["token"],
        "api": api,
        "owner": owner,
        "scorer": scorer_phone(app, owner, table["id"]),
    }
    if kind in NEEDS_A_HAND:
        _hand(app, s)  # by the API: another phone than the scorer's
    watcher = app.test_client()
    seen = watcher.get(f"/t/{s['tid']}/version")
    before = seen.get_json()["version"]
    response = WRITES[kind](app, s)
    assert response.status_code in (200, 201, 302), (kind, response.status_code)
    after = watcher.get(f"/t/{s['tid']}/version", headers={"If-None-Match": seen.headers["ETag"]})
    assert after.status_code == 200, f"{kind} did not move the version: a watcher would not see it"
    assert after.get_json()["version"] == before + 1, kind


def test_a_refused_write_leaves_the_version_alone(app: Flask) -> None:
    api = app.test_client()
    table = create_table(api)
    tid = table["id"]
    etag = api.get(f"/t/{tid}/version").headers["ETag"]
    api.post(
        f"{API}/tables/{tid}/hands",
        json=solo_record("Dani", 7) | {"tricks": {"Ana": 13}},
        headers=bearer(table["token"]),
    )
    api.post(f"{API}/tables/{tid}/hands", json=all_pass_record("Dani"))  # no token
    api.post(f"{API}/tables/{tid}/hands/1/void", json={"reason": "x"}, headers=bearer(table["token"]))  # no such hand
    assert api.get(f"/t/{tid}/version", headers={"If-None-Match": etag}).status_code == 304


# --------------------------------------------------------------------------- live pages


GAMES = {
    "jubileu": (jubileu_hands.PLAYERS, {}, [jubileu_hands.record(jubileu_hands.PLAYERS, k) for k in range(3)]),
    "quatrilho": (quatrilho_hands.PLAYERS, {}, [quatrilho_hands.record(quatrilho_hands.PLAYERS, k) for k in range(3)]),
    "samba": (samba_hands.PLAYERS, samba_hands.OPTIONS, [samba_hands.record(k) for k in range(3)]),
}


@pytest.mark.parametrize("with_hands", [False, True], ids=["empty", "hands"])
@pytest.mark.parametrize("game", list(GAMES))
def test_the_tv_view_renders_for_every_game(app: Flask, game: str, with_hands: bool) -> None:
    players, options, records = GAMES[game]
    api = app.test_client()
    table = create_table(api, game=game, players=list(players), options=options, name="Mesa 1")
    tid = table["id"]
    if with_hands:
        for record in records:
            answer = api.post(f"{API}/tables/{tid}/hands", json=record, headers=bearer(table["token"]))
            assert answer.status_code == 201, answer.get_json()
    response = english(app.test_client()).get(f"/tv/{tid}")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert re.search(r"<html [^>]*class=\"tv\"[^>]*data-wake-lock", html)
    assert re.search(rf'<main [^>]*data-live-version="/t/{tid}/version"', html)
    assert f'data-version="{version(api, tid)}"' in html and version(api, tid) == (len(records) if with_hands else 0)
    assert 'class="card scoreboard"' in html and "Mesa 1" in html
    assert 'method="post"' not in html  # nothing on the TV writes
    assert f'href="/t/{tid}/hand' not in html
    assert (f'id="hand-{len(records)}"' in html) == with_hands
    assert ("tv-last" in html) == with_hands
    for name in players:
        assert name in html
    assert app.test_client().get("/tv/nosuchtable").status_code == 404


@pytest.mark.parametrize("page", ["/t/{tid}", "/w/{tid}", "/t/{tid}/history", "/tv/{tid}"])
def test_live_pages_carry_their_version(app: Flask, page: str) -> None:
    api = app.test_client()
    table = create_table(api)
    tid = table["id"]
    for k in range(2):
        api.post(
            f"{API}/tables/{tid}/hands",
            json=jubileu_hands.record(jubileu_hands.PLAYERS, k),
            headers=bearer(table["token"]),
        )
    for phone in (app.test_client(), owner_phone(app, table)):
        html = phone.get(page.format(tid=tid)).get_data(as_text=True)
        main = re.search(r"<main [^>]*>", html)
        assert main is not None
        assert f'data-live-version="/t/{tid}/version"' in main.group(0)
        assert 'data-version="2"' in main.group(0)


def test_the_watch_view_never_offers_a_write(app: Flask) -> None:
    api = app.test_client()
    table = create_table(api, two_key=True)
    tid = table["id"]
    api.post(f"{API}/tables/{tid}/hands", json=all_pass_record("Dani"), headers=bearer(table["token"]))
    owner = owner_phone(app, table)
    for phone in (app.test_client(), owner):  # even on the owner's phone
        html = phone.get(f"/w/{tid}").get_data(as_text=True)
        main = html[html.index("<main") :]
        assert 'method="post"' not in main
        assert f'href="/t/{tid}/hand' not in main
        assert "/void" not in main


# --------------------------------------------------------------------------- two phones, one hand


def _race(app: Flask, lang: str = "en") -> tuple[dict[str, Any], FlaskClient, FlaskClient, str, Any]:
    """Two phones start hand 1; A saves "everybody passed", then B saves a Solo Sete: 409."""
    api = app.test_client()
    table = create_table(api, language="en")
    tid = table["id"]
    a = owner_phone(app, table)
    b = scorer_phone(app, a, tid)
    for phone in (a, b):
        phone.set_cookie("lang", lang)
    d_a = all_pass_draft(a, tid)
    d_b = solo_draft(b, tid)
    assert json.loads(d_a)["n"] == json.loads(d_b)["n"] == 1
    assert a.post(f"/t/{tid}/hand/all-pass", data={"d": d_a, "all_pass": "1"}).status_code == 302
    lost = b.post(f"/t/{tid}/hand", data={"d": d_b})
    return table, a, b, d_b, lost


def test_the_second_phone_sees_both_hands_and_its_choices(app: Flask) -> None:
    table, _a, _b, _d, lost = _race(app)
    tid = table["id"]
    assert lost.status_code == 409
    html = unescape(lost.get_data(as_text=True))
    theirs = re.search(r'<ol class="hands conflict-theirs">(.*?)</ol>', html, re.S)
    assert theirs, "the other phone's hand is not shown"
    assert 'id="hand-1"' in theirs.group(1)
    assert "preview-deltas" in html  # mine, below
    assert 'name="replace" value="1"' in html and "Replace hand 1 with mine" in html
    assert 'name="renumber" value="1"' in html
    # The big button is the safe choice, keeping theirs; replacing it is small and asks again.
    keep = re.search(r'<a class="btn btn-primary btn-big" href="([^"]+)">([^<]+)</a>', html)
    assert keep and keep.group(1) == f"/t/{tid}" and keep.group(2) == "Keep theirs (discard mine)"
    replace = re.search(r'<details class="conflict-replace">\s*<summary>(.*?)</summary>(.*?)</details>', html, re.S)
    assert replace and 'name="replace" value="1"' in replace.group(2) and "btn-big" not in replace.group(2)
    assert html.count("btn-primary") == 1  # the only primary button on the page
    assert re.search(r'<form method="post" action="/t/[^"]+/hand" class="stack" data-outbox>', html)
    assert stored(app, tid) == [(1, False)]  # nothing of mine stored yet


def test_the_conflict_page_and_the_confirm_button_speak_portuguese(app: Flask) -> None:
    _table, _a, _b, _d, lost = _race(app, "pt_BR")
    assert lost.status_code == 409
    html = unescape(lost.get_data(as_text=True))
    assert 'lang="pt-BR"' in html
    for english_text in ("What the other phone", "Replace hand", "Save mine", "Keep theirs", "Confirm hand"):
        assert english_text not in html, english_text


def test_replace_voids_the_other_hand_with_a_reason_and_takes_its_place(app: Flask) -> None:
    table, a, b, d_b, _lost = _race(app)
    tid = table["id"]
    api = app.test_client()
    replaced = b.post(f"/t/{tid}/hand", data={"d": d_b, "replace": "1"})
    assert replaced.status_code == 302
    assert stored(app, tid) == [(1, True), (2, False)]
    one = api.get(f"{API}/tables/{tid}/hands/1").get_json()
    two = api.get(f"{API}/tables/{tid}/hands/2").get_json()
    reason = one["voided"]["reason"]
    assert len(reason) > 20  # a sentence says why, in the phone's language
    assert one["voided"]["by"].startswith("scorer:")
    mine = two["deltas"]
    assert two["replaces"] == 1 and two["dealer"] == "Dani"
    assert two["contract"]["bid"] == "solo_sete" and two["contract"]["declarers"] == ["Ana"] and mine["Ana"] > 0
    state = get_table(api, tid)
    assert state["totals"] == mine  # only mine counts
    assert state["next_dealer"] == "Ana" and state["next_number"] == 3
    # A second tap, or the outbox sending it again, stores nothing more.
    assert b.post(f"/t/{tid}/hand", data={"d": d_b, "replace": "1"}).status_code == 302
    assert b.post(f"/t/{tid}/hand", data={"d": d_b, "replace": "1"}, headers=OUTBOX).status_code == 200
    assert stored(app, tid) == [(1, True), (2, False)]
    assert get_table(api, tid)["totals"] == mine
    flash = b.get(f"/t/{tid}").get_data(as_text=True)
    assert 'class="flash flash-success"' in flash
    # A's phone sees it in the history.
    history = unescape(a.get(f"/t/{tid}/history").get_data(as_text=True))
    assert reason in history and re.search(r'id="hand-2">.*?tag-fix', history, re.S)


def test_renumber_saves_mine_as_the_next_hand(app: Flask) -> None:
    table, _a, b, d_b, _lost = _race(app)
    tid = table["id"]
    api = app.test_client()
    saved = b.post(f"/t/{tid}/hand", data={"d": d_b, "renumber": "1"})
    assert saved.status_code == 302
    assert stored(app, tid) == [(1, False), (2, False)]
    one = api.get(f"{API}/tables/{tid}/hands/1").get_json()
    two = api.get(f"{API}/tables/{tid}/hands/2").get_json()
    expected = {name: one["deltas"][name] + two["deltas"][name] for name in PLAYERS}
    assert get_table(api, tid)["totals"] == expected
    assert two["contract"]["bid"] == "solo_sete"
    # Sent again (double tap, outbox): still two hands.
    assert b.post(f"/t/{tid}/hand", data={"d": d_b, "renumber": "1"}).status_code == 302
    assert b.post(f"/t/{tid}/hand", data={"d": d_b}).status_code == 302
    assert stored(app, tid) == [(1, False), (2, False)]


def test_discarding_mine_keeps_theirs(app: Flask) -> None:
    table, a, b, _d, _lost = _race(app)
    tid = table["id"]
    page = b.get(f"/t/{tid}")
    assert page.status_code == 200
    assert stored(app, tid) == [(1, False)]


def test_a_conflict_through_the_outbox_answers_the_conflict_page(app: Flask) -> None:
    api = app.test_client()
    table = create_table(api, language="en")
    tid = table["id"]
    a = owner_phone(app, table)
    b = scorer_phone(app, a, tid)
    d_a, d_b = all_pass_draft(a, tid), solo_draft(b, tid)
    a.post(f"/t/{tid}/hand/all-pass", data={"d": d_a, "all_pass": "1"}, headers=OUTBOX)
    lost = b.post(f"/t/{tid}/hand", data={"d": d_b}, headers=OUTBOX)
    assert lost.status_code == 409
    assert lost.mimetype == "text/html"
    assert "conflict-theirs" in lost.get_data(as_text=True)


def test_replacing_a_hand_voided_meanwhile_is_refused_with_a_sentence(app: Flask) -> None:
    table, a, b, d_b, _lost = _race(app)
    tid = table["id"]
    a.post(f"/t/{tid}/hands/1/void", data={"reason": "misdeal"})
    again = b.post(f"/t/{tid}/hand", data={"d": d_b, "replace": "1"})
    assert again.status_code == 409
    assert 'class="card conflict"' in again.get_data(as_text=True)
    assert stored(app, tid) == [(1, True)]


# --------------------------------------------------------------------------- the outbox


def test_saving_answers_json_for_the_outbox_and_a_redirect_otherwise(app: Flask) -> None:
    table = create_table(app.test_client())
    tid = table["id"]
    phone = owner_phone(app, table)
    by_fetch = phone.post(
        f"/t/{tid}/hand/all-pass", data={"d": all_pass_draft(phone, tid), "all_pass": "1"}, headers=OUTBOX
    )
    assert by_fetch.status_code == 200
    assert by_fetch.mimetype == "application/json"
    assert by_fetch.get_json() == {"location": f"/t/{tid}"}
    # The flashed message and the undo bar wait for that page.
    html = phone.get(by_fetch.get_json()["location"]).get_data(as_text=True)
    assert "undo-bar" in html and f"/t/{tid}/hands/1/undo" in html
    plain = phone.post(f"/t/{tid}/hand", data={"d": solo_draft(phone, tid)})
    assert plain.status_code == 302
    assert plain.headers["Location"].endswith(f"/t/{tid}")
    assert stored(app, tid) == [(1, False), (2, False)]


def test_a_replayed_outbox_post_stores_one_hand(app: Flask) -> None:
    table = create_table(app.test_client())
    tid = table["id"]
    phone = owner_phone(app, table)
    body = {"d": solo_draft(phone, tid)}
    answers = [phone.post(f"/t/{tid}/hand", data=body, headers=OUTBOX) for _ in range(3)]
    assert [r.status_code for r in answers] == [200, 200, 200]
    # The first goes to the table; the replays to the page saying the hand was already saved.
    assert [r.get_json()["location"] for r in answers] == [f"/t/{tid}"] + [f"/t/{tid}/hands/1/saved"] * 2
    assert stored(app, tid) == [(1, False)]
    # The page load that flushes the outbox may come from the phone after a restart (a new
    # session): still one hand, and the version moved only once.
    again = owner_phone(app, table).post(f"/t/{tid}/hand", data=body, headers=OUTBOX)
    assert again.status_code == 200
    assert stored(app, tid) == [(1, False)]
    assert version(app.test_client(), tid) == 1


def test_an_outbox_post_from_a_phone_that_lost_its_access_is_refused(app: Flask) -> None:
    api = app.test_client()
    table = create_table(api)
    tid = table["id"]
    owner = owner_phone(app, table)
    scorer = scorer_phone(app, owner, tid)
    body = {"d": all_pass_draft(scorer, tid), "all_pass": "1"}
    with app.app_context():
        from referee.extensions import db
        from referee.models import Access

        access_id = db.session.query(Access).one().id
    owner.post(f"/t/{tid}/access/{access_id}/revoke")
    # Refused with the page that says the owner cancelled this phone's access (the outbox shows
    # a refusal's page as it comes).
    refused = scorer.post(f"/t/{tid}/hand/all-pass", data=body, headers=OUTBOX)
    assert refused.status_code == 403
    assert "The table&#39;s owner cancelled this phone&#39;s access." in refused.get_data(as_text=True)
    assert stored(app, tid) == []


def test_polls_and_repeated_reads_never_resend_the_session_cookie(client) -> None:
    """A poll answered late must not put back an older session cookie over a newer one (the
    phone would forget a table it just opened, or a scoring link it just used): only answers
    that change the session send the cookie."""
    table = client.post(
        "/api/v1/tables", json={"game": "jubileu", "players": ["Ana", "Bia", "Caio", "Dani"]}
    ).get_json()
    first = client.get(f"/w/{table['id']}")
    assert "Set-Cookie" in first.headers  # the phone now knows this table
    again = client.get(f"/w/{table['id']}")
    poll = client.get(f"/t/{table['id']}/version")
    assert "Set-Cookie" not in again.headers and "Set-Cookie" not in poll.headers
