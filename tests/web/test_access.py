"""Who may do what at a table (referee/access.py, referee/views/sharing.py): the owner, scorers
who came in by a scoring link or a join code, watchers, and phones whose access was revoked.

Every write route, web and API, is tried with every role; a refused write must change nothing.
Then the ways in themselves: revoking locks out at the next request, tokens and codes are kept
only as hashes, join codes work once (whatever the case and dashes), expire, and are
rate-limited per client with a sentence that gives nothing away; every write names who made it.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from html import unescape
from typing import Any
from unittest import mock

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from referee import access, guesses, ledger, phone
from referee.extensions import db
from referee.models import Access, Hand, HandEvent, JoinAttempt, PhoneHold, Table, utcnow

from .api_support import API, all_pass_record, create_table

ROLES = ("owner", "link", "code", "watcher", "revoked_link", "revoked_code")
SCORERS = {"owner", "link", "code"}
#: What a phone whose access was revoked is told, in either language (the API answers in the table's).
REVOKED = (
    "O acesso deste celular foi cancelado pelo dono da mesa.",
    "The table's owner cancelled this phone's access.",
)


# --------------------------------------------------------------------------- helpers


def english(client: FlaskClient) -> FlaskClient:
    client.set_cookie("lang", "en")
    return client


def scoring_link(owner: FlaskClient, tid: str, label: str = "") -> tuple[str, Any]:
    """The owner creates a scoring link: answers its token and the page's response."""
    response = owner.post(f"/t/{tid}/share/link", data={"label": label})
    assert response.status_code == 200, response.status_code
    found = re.search(r"data-scoring-link>([^<]+)<", response.get_data(as_text=True))
    assert found, "the new scoring link is not shown"
    url = unescape(found.group(1)).strip()
    assert "/j/" in url
    return url.rsplit("/j/", 1)[1], response


def join_code(owner: FlaskClient, tid: str, label: str = "") -> tuple[str, Any]:
    """The owner creates a join code: answers it as shown (ABCD-EFGH) and the response."""
    response = owner.post(f"/t/{tid}/share/code", data={"label": label})
    assert response.status_code == 200, response.status_code
    found = re.search(r"data-join-code>([^<]+)<", response.get_data(as_text=True))
    assert found, "the new join code is not shown"
    return found.group(1).strip(), response


def redeem(client: FlaskClient, code: str, addr: str = "10.0.0.1") -> Any:
    return client.post("/join", data={"code": code}, environ_base={"REMOTE_ADDR": addr})


def redeemed_token(client: FlaskClient, code: str, addr: str = "10.0.0.1") -> str:
    """Redeem ``code`` on ``client`` and answer the token it became. Neither the phone nor the
    server keeps that token in clear (the phone's key names its hash on the server), so the test
    catches it as it is drawn, for the API."""
    drawn: list[str] = []
    draw = access.new_token

    def catching() -> str:
        drawn.append(draw())
        return drawn[-1]

    with mock.patch.object(access, "new_token", catching):
        assert redeem(client, code, addr).status_code == 302
    return drawn[-1]


def device_of(client: FlaskClient) -> str:
    with client.session_transaction() as s:
        return str(s.get("device", ""))


def access_id(app: Flask, label: str) -> int:
    with app.app_context():
        row = db.session.scalar(select(Access).where(Access.label == label))
        assert row is not None, label
        return row.id


def field_error(html: str) -> str:
    found = re.search(r'class="field-error"[^>]*>([^<]*)<', html)
    return unescape(found.group(1)).strip() if found else ""


def flashes(html: str, kind: str = r"\w+") -> list[str]:
    """The flashed sentences of a page (of one kind: "success", "error")."""
    return [unescape(m).strip() for m in re.findall(rf'class="flash flash-{kind}"[^>]*>([^<]*)<', html)]


def phrase(app: Flask, code: str, tid: str | None = None) -> str:
    """How the pages name the author of a write (referee.views.labels.by), in English, with the
    labels of the table's accesses ("by a scorer (Bia)")."""
    from referee.views import labels

    with app.test_request_context("/", headers={"Cookie": "lang=en"}):
        names = access.labels(ledger.get_table(tid)) if tid else {}
        return str(labels.by(code, names))


def all_pass_form(n: int, key: str, ultima: str = "ouros", **extra: Any) -> dict[str, str]:
    """The body of Jubileu's "everybody passed" save (POST /t/<id>/hand/all-pass)."""
    draft = {"ultima": ultima, "n": n, "key": key, **extra}
    return {"d": json.dumps(draft), "all_pass": "1"}


def hand_of(html: str, number: int) -> str:
    """The <li> of hand ``number`` on a page (up to the next hand or the end of the list)."""
    found = re.search(rf'<li class="hand[^"]*" id="hand-{number}">(.*?)</li>\s*(?=<li class="hand|</ol>)', html, re.S)
    assert found, f"hand {number} is not on the page"
    return found.group(1)


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


@dataclass
class Setup:
    """A Jubileu table with one phone per role (web) and the bearer token each role holds."""

    app: Flask
    tid: str
    token: str
    web: dict[str, FlaskClient] = field(default_factory=dict)
    api: dict[str, str | None] = field(default_factory=dict)

    @property
    def owner(self) -> FlaskClient:
        return self.web["owner"]

    def table(self) -> Table:
        return ledger.get_table(self.tid)

    def snapshot(self) -> dict[str, Any]:
        """Everything a write could change."""
        with self.app.app_context():
            table = self.table()
            hands = ledger.all_hands(table)
            return {
                "version": table.version,
                "hands": [(h.number, h.status, len(h.events)) for h in hands],
                "two_key": table.two_key,
                "finished": table.finished_at is not None,
                "options": dict(table.options),
                "last_round": table.last_round_from,
                "accesses": sorted((a.id, a.revoked_at is not None) for a in db.session.scalars(select(Access))),
                "tables": db.session.query(Table).count(),
            }


def make_setup(app: Flask, *, two_key: bool = False, hand: bool = True) -> Setup:
    """Owner (the phone holding the table's token), a scorer by link, a scorer by code, a
    watcher, and a link and a code that were used and then revoked. With ``hand``, hand 1 (an
    all-pass) is recorded through the API: by the owner, or under two-key entry by a scoring
    link of its own ("recorder")."""
    client = app.test_client()
    made = create_table(client, two_key=two_key, language="en")
    s = Setup(app=app, tid=made["id"], token=made["token"])
    for role in ROLES:
        s.web[role] = english(app.test_client())
    tid = s.tid
    assert s.owner.post(f"/t/{tid}/scorer", data={"token": s.token}).status_code == 302
    s.api["owner"] = s.token

    link, _page = scoring_link(s.owner, tid, "link")
    assert s.web["link"].get(f"/j/{link}").status_code == 302
    s.api["link"] = link

    code, _page = join_code(s.owner, tid, "code")
    s.api["code"] = redeemed_token(s.web["code"], code)

    old_link, _page = scoring_link(s.owner, tid, "revoked_link")
    assert s.web["revoked_link"].get(f"/j/{old_link}").status_code == 302
    s.api["revoked_link"] = old_link
    old_code, _page = join_code(s.owner, tid, "revoked_code")
    s.api["revoked_code"] = redeemed_token(s.web["revoked_code"], old_code, "10.0.0.2")
    for label in ("revoked_link", "revoked_code"):
        assert s.owner.post(f"/t/{tid}/access/{access_id(app, label)}/revoke").status_code == 302

    s.api["watcher"] = None
    if hand:
        # Under two-key entry the hand is recorded through an access of its own, so that every
        # role may confirm it (nobody confirms a hand recorded through his own access).
        recorder = scoring_link(s.owner, tid, "recorder")[0] if two_key else s.token
        response = client.post(f"{API}/tables/{tid}/hands", json=all_pass_record("Dani"), headers=bearer(recorder))
        assert response.status_code == 201
    return s


# --------------------------------------------------------------------------- the matrix


@dataclass(frozen=True)
class Route:
    name: str
    method: str
    path: str  # {tid}, {link_id} filled in
    level: str  # "scorer" or "owner"
    data: dict[str, str] | None = None
    json: dict[str, Any] | None = None
    effect: Callable[[dict[str, Any], dict[str, Any]], bool] | None = None  # (before, after) -> done?
    two_key: bool = False
    hand: bool = True
    boosted: bool = False  # sent as the page's script sends a step of the hand flow (only <main> swapped)


def _hand_void(n: int) -> Callable[[dict[str, Any], dict[str, Any]], bool]:
    return lambda before, after: any(num == n and status == "void" for num, status, _e in after["hands"])


def _status(n: int, wanted: str) -> Callable[[dict[str, Any], dict[str, Any]], bool]:
    return lambda before, after: any(num == n and status == wanted for num, status, _e in after["hands"])


def _more_hands(before: dict[str, Any], after: dict[str, Any]) -> bool:
    return len(after["hands"]) == len(before["hands"]) + 1


def _more_accesses(before: dict[str, Any], after: dict[str, Any]) -> bool:
    return len(after["accesses"]) == len(before["accesses"]) + 1


WEB_ROUTES = [
    Route("record page", "GET", "/t/{tid}/hand", "scorer"),
    Route("record page, a step", "GET", "/t/{tid}/hand?ultima=copas", "scorer"),
    Route(
        "save a hand", "POST", "/t/{tid}/hand/all-pass", "scorer", data=all_pass_form(2, "k-save"), effect=_more_hands
    ),
    Route(
        "save via the confirm form",
        "POST",
        "/t/{tid}/hand",
        "scorer",
        data=all_pass_form(2, "k-save2"),
        effect=_more_hands,
    ),
    Route(
        "correct a hand",
        "POST",
        "/t/{tid}/hand/all-pass",
        "scorer",
        data={**all_pass_form(2, "k-fix", ultima="copas", replaces=1), "reason": "wrong suit"},
        effect=lambda b, a: _hand_void(1)(b, a) and len(a["hands"]) == 2,
    ),
    Route("record page, a boosted step", "GET", "/t/{tid}/hand?ultima=copas", "scorer", boosted=True),
    Route(
        "save via the confirm form, boosted",
        "POST",
        "/t/{tid}/hand",
        "scorer",
        data=all_pass_form(2, "k-save3"),
        effect=_more_hands,
        boosted=True,
    ),
    Route("void page", "GET", "/t/{tid}/hands/1/void", "scorer"),
    Route("void", "POST", "/t/{tid}/hands/1/void", "scorer", data={"reason": "misdeal"}, effect=_hand_void(1)),
    Route("undo", "POST", "/t/{tid}/hands/1/undo", "scorer"),  # not this phone's hand: a flash
    Route("undo question", "GET", "/t/{tid}/hands/1/undo", "scorer"),
    Route("redo", "POST", "/t/{tid}/hands/1/redo", "scorer"),  # not undone on this phone: a flash
    Route(
        "last round",
        "POST",
        "/t/{tid}/last-round",
        "scorer",
        data={"on": "1"},
        effect=lambda b, a: a["last_round"] is not None,
    ),
    Route("rematch", "POST", "/t/{tid}/rematch", "scorer"),  # Jubileu has none: a flash
    Route("confirm", "POST", "/t/{tid}/hands/1/confirm", "scorer", two_key=True, effect=_status(1, "confirmed")),
    Route(
        "dispute",
        "POST",
        "/t/{tid}/hands/1/dispute",
        "scorer",
        data={"reason": "9 tricks"},
        two_key=True,
        effect=_status(1, "disputed"),
    ),
    Route("new scoring link", "POST", "/t/{tid}/share/link", "owner", data={"label": "x"}, effect=_more_accesses),
    Route("new join code", "POST", "/t/{tid}/share/code", "owner", data={"label": "x"}, effect=_more_accesses),
    Route(
        "revoke",
        "POST",
        "/t/{tid}/access/{link_id}/revoke",
        "owner",
        effect=lambda b, a: sum(r for _i, r in a["accesses"]) == sum(r for _i, r in b["accesses"]) + 1,
    ),
    Route("two-key on", "POST", "/t/{tid}/two-key", "owner", data={"on": "1"}, effect=lambda b, a: a["two_key"]),
    Route(
        "two-key off",
        "POST",
        "/t/{tid}/two-key",
        "owner",
        data={"on": "0"},
        two_key=True,
        effect=lambda b, a: not a["two_key"],
    ),
    Route("end the table", "POST", "/t/{tid}/end", "owner", data={"confirm": "1"}, effect=lambda b, a: a["finished"]),
    Route("end the table: the question", "GET", "/t/{tid}/end", "owner"),
    Route("reopen the table", "POST", "/t/{tid}/reopen", "owner"),
    Route("house rules page", "GET", "/t/{tid}/options", "owner", hand=False),
    Route(
        "house rules",
        "POST",
        "/t/{tid}/options",
        "owner",
        data={"opt_starting_chips": "50", "opt_chip_value": "0", "opt_overtricks": "y"},
        hand=False,
        effect=lambda b, a: a["options"].get("starting_chips") == 50,
    ),
]

API_ROUTES = [
    Route("API record", "POST", API + "/tables/{tid}/hands", "scorer", json=all_pass_record("Ana"), effect=_more_hands),
    Route(
        "API void",
        "POST",
        API + "/tables/{tid}/hands/1/void",
        "scorer",
        json={"reason": "misdeal"},
        effect=_hand_void(1),
    ),
    Route(
        "API correct",
        "POST",
        API + "/tables/{tid}/hands",
        "scorer",
        json={**all_pass_record("Dani"), "ultima": "copas", "replaces": 1, "reason": "wrong suit"},
        effect=_hand_void(1),
    ),
    # Confirming through the API by a scorer is refused for another reason (see test_two_key):
    # here only the permission is checked (not 401), plus the owner's confirmation below.
    Route("API confirm", "POST", API + "/tables/{tid}/hands/1/confirm", "scorer", two_key=True),
    Route(
        "API dispute",
        "POST",
        API + "/tables/{tid}/hands/1/dispute",
        "scorer",
        json={"reason": "x"},
        two_key=True,
        effect=_status(1, "disputed"),
    ),
    Route("API rematch", "POST", API + "/tables/{tid}/rematch", "scorer"),  # Jubileu: 409
]


def _allowed(route: Route, role: str) -> bool:
    return role in SCORERS if route.level == "scorer" else role == "owner"


def _send(s: Setup, route: Route, role: str) -> Any:
    path = route.path.format(tid=s.tid, link_id=access_id(s.app, "link"))
    if path.startswith(API):
        client = s.app.test_client()
        return client.open(path, method=route.method, json=route.json, headers=bearer(s.api[role]))
    headers = {"X-Swap": "true", "X-Swap-Main": "true"} if route.boosted else {}
    return s.web[role].open(path, method=route.method, data=route.data, headers=headers)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("route", WEB_ROUTES + API_ROUTES, ids=lambda r: r.name)
def test_every_role_on_every_write_route(app: Flask, route: Route, role: str) -> None:
    s = make_setup(app, two_key=route.two_key, hand=route.hand)
    before = s.snapshot()
    response = _send(s, route, role)
    after = s.snapshot()
    if _allowed(route, role):
        assert response.status_code not in (401, 403), (route.name, role, response.status_code)
        assert response.status_code < 500
        if route.effect is not None:
            assert route.effect(before, after), (route.name, role, before, after)
    else:
        revoked = role.startswith("revoked") and route.level == "scorer"
        web = not route.path.startswith(API)
        # A phone whose access was revoked is told so on a page of its own (403); the API keeps
        # its 401 "unauthorized", with the same sentence.
        refused = 403 if revoked and web else 401 if route.level == "scorer" else 403
        assert response.status_code == refused, (route.name, role, response.status_code)
        assert after == before, f"{route.name} by {role} was refused but changed the table"
        if not web:
            assert response.get_json()["error"]["code"] == "unauthorized"
        if revoked:
            said = response.get_json()["error"]["message"] if not web else response.get_data(as_text=True)
            assert any(sentence in unescape(said) for sentence in REVOKED), (route.name, role, said)


def test_the_owner_confirms_through_the_api(app: Flask) -> None:
    s = make_setup(app, two_key=True)
    response = app.test_client().post(f"{API}/tables/{s.tid}/hands/1/confirm", headers=bearer(s.token))
    assert response.status_code == 200
    assert response.get_json()["status"] == "confirmed"


@pytest.mark.parametrize("role", ROLES)
def test_reading_needs_no_role(app: Flask, role: str) -> None:
    s = make_setup(app)
    client = s.web[role]
    # A phone whose access was revoked is told so where it used to score (the table page, 403,
    # with the way to follow it read-only); every read-only page still opens for it.
    table_page = client.get(f"/t/{s.tid}")
    assert table_page.status_code == (403 if role.startswith("revoked") else 200)
    for path in (
        f"/w/{s.tid}",
        f"/t/{s.tid}/history",
        f"/t/{s.tid}/history?page=1",
        f"/t/{s.tid}/settle",
        f"/t/{s.tid}/share",
        f"/tv/{s.tid}",
    ):
        assert client.get(path).status_code == 200, path
    api = app.test_client()
    assert api.get(f"{API}/tables/{s.tid}", headers=bearer(s.api[role])).status_code == 200
    assert (
        api.post(
            f"{API}/tables/{s.tid}/hands/preview", json=all_pass_record("Ana"), headers=bearer(s.api[role])
        ).status_code
        == 200
    )


@pytest.mark.parametrize("role", ROLES)
def test_each_role_sees_only_its_controls(app: Flask, role: str) -> None:
    s = make_setup(app)
    table = s.web[role].get(f"/t/{s.tid}").get_data(as_text=True)
    share = s.web[role].get(f"/t/{s.tid}/share").get_data(as_text=True)
    record = f'href="/t/{s.tid}/hand"'
    assert (record in table) == (role in SCORERS), role
    owner_forms = (f"/t/{s.tid}/share/link", f"/t/{s.tid}/two-key", f"/t/{s.tid}/end", f"/t/{s.tid}/access/")
    for form in owner_forms:
        assert (form in share) == (role == "owner"), (role, form)
    if role in ("link", "code"):
        assert 'href="/join"' not in share  # it scores already
    if role not in SCORERS:
        assert 'href="/join"' in share
    # Everybody gets the watch link and its QR code.
    assert "data-watch-link" in share and 'class="qr"' in share


def test_a_link_or_code_of_one_table_opens_no_other(app: Flask) -> None:
    s = make_setup(app)
    other = create_table(app.test_client())
    api = app.test_client()
    for role in ("link", "code"):
        response = api.post(
            f"{API}/tables/{other['id']}/hands", json=all_pass_record("Dani"), headers=bearer(s.api[role])
        )
        assert response.status_code == 401
        # Pasting it as the other table's scorer code does not work either.
        client = s.web[role]
        client.post(f"/t/{other['id']}/scorer", data={"token": s.api[role]})
        assert client.get(f"/t/{other['id']}/hand").status_code == 401


def test_the_owner_cannot_revoke_another_table_s_access(app: Flask) -> None:
    s = make_setup(app)
    mine = english(app.test_client())
    other = create_table(app.test_client())
    mine.post(f"/t/{other['id']}/scorer", data={"token": other["token"]})  # owner of the other table
    response = mine.post(f"/t/{other['id']}/access/{access_id(app, 'link')}/revoke")
    assert response.status_code == 302
    assert flashes(mine.get(response.headers["Location"]).get_data(as_text=True), "error")
    assert s.web["link"].get(f"/t/{s.tid}/hand").status_code == 200  # still a scorer at its own table


# --------------------------------------------------------------------------- revoking


def test_revoking_a_link_locks_the_phone_out_at_the_next_request(app: Flask) -> None:
    s = make_setup(app, hand=False)
    phone = s.web["link"]
    page = phone.get(f"/t/{s.tid}/hand?ultima=ouros")  # mid-entry on the scorer's phone
    assert page.status_code == 200
    draft = re.search(r'name="d" value="([^"]*)"', page.get_data(as_text=True))
    assert draft
    d = unescape(draft.group(1))
    assert s.owner.post(f"/t/{s.tid}/access/{access_id(app, 'link')}/revoke").status_code == 302
    # The very next request of that phone, web or API, is refused; nothing is stored.
    assert phone.post(f"/t/{s.tid}/hand/all-pass", data={"d": d, "all_pass": "1"}).status_code == 403
    assert phone.get(f"/t/{s.tid}/hand").status_code == 403
    assert (
        app.test_client()
        .post(f"{API}/tables/{s.tid}/hands", json=all_pass_record("Dani"), headers=bearer(s.api["link"]))
        .status_code
        == 401
    )
    assert s.snapshot()["hands"] == []
    # Its table page says in words that the owner cancelled its access, and what to do; it
    # offers nothing that writes. Its link says it is refused.
    revoked = phone.get(f"/t/{s.tid}")
    assert revoked.status_code == 403
    page = unescape(revoked.get_data(as_text=True))
    assert any(sentence in page for sentence in REVOKED)
    assert f'href="/w/{s.tid}"' in page and 'href="/join"' in page
    assert f'href="/t/{s.tid}/hand"' not in page and "Error 403" not in page and "Erro 403" not in page
    refused = phone.get(f"/j/{s.api['link']}")
    assert refused.status_code == 403
    assert "error-box" in refused.get_data(as_text=True)
    # The others keep scoring; the revoked access is no longer listed.
    assert s.web["code"].post(f"/t/{s.tid}/hand/all-pass", data=all_pass_form(1, "k1")).status_code == 302
    share = s.owner.get(f"/t/{s.tid}/share").get_data(as_text=True)
    assert f"/access/{access_id(app, 'link')}/revoke" not in share
    assert f"/access/{access_id(app, 'code')}/revoke" in share


def test_revoking_a_code_locks_out_the_phone_that_redeemed_it_and_an_unused_code(app: Flask) -> None:
    s = make_setup(app)
    phone = s.web["code"]
    assert phone.get(f"/t/{s.tid}/hand").status_code == 200
    s.owner.post(f"/t/{s.tid}/access/{access_id(app, 'code')}/revoke")
    assert phone.get(f"/t/{s.tid}/hand").status_code == 403  # told its access was cancelled
    assert (
        app.test_client()
        .post(f"{API}/tables/{s.tid}/hands/1/void", json={"reason": "x"}, headers=bearer(s.api["code"]))
        .status_code
        == 401
    )
    # A code revoked before anyone typed it no longer works.
    unused, _page = join_code(s.owner, s.tid, "unused")
    s.owner.post(f"/t/{s.tid}/access/{access_id(app, 'unused')}/revoke")
    assert redeem(english(app.test_client()), unused, "10.9.9.9").status_code == 422


def test_revoking_twice_says_so(app: Flask) -> None:
    s = make_setup(app)
    again = s.owner.post(f"/t/{s.tid}/access/{access_id(app, 'revoked_link')}/revoke")
    assert again.status_code == 302
    assert flashes(s.owner.get(again.headers["Location"]).get_data(as_text=True), "error")
    assert s.owner.post(f"/t/{s.tid}/access/999999/revoke").status_code == 302


@pytest.mark.parametrize("token", ["", "x", "A" * 43, "not-a-token-at-all"])
def test_unknown_links_are_refused_with_the_refused_page(client: FlaskClient, token: str) -> None:
    english(client)
    response = client.get(f"/j/{token}") if token else client.get("/j/")
    if not token:
        assert response.status_code == 404
        return
    assert response.status_code == 403
    html = response.get_data(as_text=True)
    refusal = re.search(r'class="card error-box" role="alert">([^<]+)<', html)
    assert refusal and refusal.group(1).strip().endswith(".")
    with client.application.app_context():
        assert db.session.query(PhoneHold).count() == 0


# --------------------------------------------------------------------------- stored as hashes


def _every_stored_value(app: Flask) -> str:
    """Every value of every row of every table of the database, as one text."""
    with app.app_context():
        parts = []
        for table in db.metadata.sorted_tables:
            for row in db.session.execute(select(table)):
                parts.append(" ".join(repr(v) for v in row))
        return "\n".join(parts)


def test_tokens_and_codes_are_stored_only_as_hashes(app: Flask) -> None:
    s = make_setup(app)
    unused, response = join_code(s.owner, s.tid, "unused")
    assert response.headers.get("Cache-Control") == "no-store"
    link, response = scoring_link(s.owner, s.tid, "shown once")
    assert response.headers.get("Cache-Control") == "no-store"
    assert "no-store" not in (s.owner.get(f"/t/{s.tid}/share").headers.get("Cache-Control") or "")
    secrets_ = [s.token, link, unused, unused.replace("-", ""), *(t for t in s.api.values() if t)]
    dump = _every_stored_value(app)
    for secret in secrets_:
        assert secret not in dump, "a token or code is stored in plain text"
        assert hashlib.sha256(secret.encode()).hexdigest() in dump or secret == unused
    assert "10.0.0.1" not in dump and "10.0.0.2" not in dump  # client addresses are hashed too
    with app.app_context():
        for row in db.session.scalars(select(Access)):
            for value in (row.token_hash, row.code_hash):
                assert value is None or re.fullmatch(r"[0-9a-f]{64}", value)
    # The scoring link's token appears nowhere else but on the page that made it.
    assert link not in s.owner.get(f"/t/{s.tid}/share").get_data(as_text=True)
    assert unused not in s.owner.get(f"/t/{s.tid}/share").get_data(as_text=True)


def test_a_scoring_link_is_256_random_bits_and_a_code_8_unambiguous_characters(app: Flask) -> None:
    s = make_setup(app, hand=False)
    tokens = {scoring_link(s.owner, s.tid)[0] for _ in range(5)}
    assert len(tokens) == 5
    for token in tokens:
        assert re.fullmatch(r"[A-Za-z0-9_-]{43}", token)  # 32 bytes, base64url
    for _ in range(5):
        code, _page = join_code(s.owner, s.tid)
        assert re.fullmatch(r"[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}", code), code


# --------------------------------------------------------------------------- join codes


def test_a_join_code_works_once_whatever_the_case_and_dashes(app: Flask) -> None:
    s = make_setup(app, hand=False)
    for typed in (
        lambda c: c.lower(),
        lambda c: c.replace("-", ""),
        lambda c: " " + c.replace("-", " - ").lower() + " ",
    ):
        code, _page = join_code(s.owner, s.tid)
        phone = english(app.test_client())
        response = redeem(phone, typed(code), "10.1.1.1")
        assert response.status_code == 302, typed(code)
        assert response.headers["Location"].endswith(f"/t/{s.tid}")
        assert phone.get(f"/t/{s.tid}/hand").status_code == 200
        # Single use: the same code, on another phone, in any spelling, no longer works.
        late = english(app.test_client())
        for again in (code, code.lower(), code.replace("-", "")):
            assert redeem(late, again, "10.1.1.2").status_code == 422
        assert late.get(f"/t/{s.tid}/hand").status_code == 401


def test_an_expired_code_does_not_work(app: Flask) -> None:
    s = make_setup(app, hand=False)
    code, _page = join_code(s.owner, s.tid, "old")
    with app.app_context():
        row = db.session.get(Access, access_id(app, "old"))
        row.code_expires_at = utcnow() - timedelta(seconds=1)
        db.session.commit()
    phone = english(app.test_client())
    assert redeem(phone, code).status_code == 422
    assert phone.get(f"/t/{s.tid}/hand").status_code == 401
    # An expired code is not listed among the ways in.
    assert f"/access/{access_id(app, 'old')}/revoke" not in s.owner.get(f"/t/{s.tid}/share").get_data(as_text=True)


def test_a_code_lasts_thirty_minutes(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    s = make_setup(app, hand=False)
    early, _page = join_code(s.owner, s.tid)
    late, _page = join_code(s.owner, s.tid)
    now = utcnow()
    monkeypatch.setattr(access, "utcnow", lambda: now + timedelta(minutes=29))
    assert redeem(english(app.test_client()), early).status_code == 302
    monkeypatch.setattr(access, "utcnow", lambda: now + timedelta(minutes=31))
    assert redeem(english(app.test_client()), late, "10.0.0.5").status_code == 422


def test_wrong_codes_are_rate_limited_per_client_and_the_sentences_say_nothing(app: Flask) -> None:
    s = make_setup(app, hand=False)
    good, _page = join_code(s.owner, s.tid)
    used, _page = join_code(s.owner, s.tid)
    assert redeem(english(app.test_client()), used, "10.7.7.7").status_code == 302
    expired, _page = join_code(s.owner, s.tid, "expired")
    revoked, _page = join_code(s.owner, s.tid, "revoked")
    with app.app_context():
        db.session.get(Access, access_id(app, "expired")).code_expires_at = utcnow() - timedelta(minutes=1)
        db.session.commit()
    s.owner.post(f"/t/{s.tid}/access/{access_id(app, 'revoked')}/revoke")

    phone = english(app.test_client())
    sentences = set()
    for typed in ("ZZZZ-ZZZZ", used, expired, revoked, "", "x" * 30, "ABCD", s.token):
        response = redeem(phone, typed, "10.6.6.6")
        assert response.status_code == 422, typed
        html = response.get_data(as_text=True)
        sentences.add(field_error(html))
        assert 'aria-invalid="true"' in html
    # One sentence for a wrong, used, expired or revoked code: nothing to learn from it.
    assert len(sentences) == 1, sentences
    sentence = sentences.pop()
    assert sentence.endswith(".") and len(sentence) > 20
    for leak in ("expired", "revoked", "used", "unknown", s.tid):
        assert leak not in sentence.lower()
    for typed in ("ZZZZ-ZZZY", "ZZZZ-ZZZX"):  # attempts 9 and 10
        assert redeem(phone, typed, "10.6.6.6").status_code == 422
    # The 11th attempt is refused before the code is looked at, even the right code.
    blocked = redeem(phone, good, "10.6.6.6")
    assert blocked.status_code == 429
    refusal = field_error(blocked.get_data(as_text=True))
    assert refusal and refusal != sentence
    assert good not in blocked.get_data(as_text=True).replace(f'value="{good}"', "")  # only echoed in the field
    for leak in ("right", "correct", "valid", s.tid):
        assert leak not in refusal.lower()
    assert phone.get(f"/t/{s.tid}/hand").status_code == 401
    # Another client is not blocked, and the code it types was not spent by the blocked one.
    other = english(app.test_client())
    assert redeem(other, good, "10.6.6.7").status_code == 302
    assert other.get(f"/t/{s.tid}/hand").status_code == 200


def test_the_rate_limit_window_passes(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    s = make_setup(app, hand=False)
    phone = english(app.test_client())
    for _ in range(guesses.PHONE_WRONG):
        redeem(phone, "ZZZZ-ZZZZ", "10.4.4.4")
    assert redeem(phone, "ZZZZ-ZZZZ", "10.4.4.4").status_code == 429
    with app.app_context():
        mine = db.session.query(JoinAttempt).filter(
            JoinAttempt.client.startswith(guesses.key(guesses.JOIN, f"device:{device_of(phone)}"))
        )
        assert mine.count() == guesses.PHONE_WRONG  # the refused one is not counted
    code, _page = join_code(s.owner, s.tid)
    now = utcnow()
    monkeypatch.setattr(guesses, "utcnow", lambda: now + timedelta(minutes=guesses.WINDOW_MINUTES, seconds=5))
    assert redeem(phone, code, "10.4.4.4").status_code == 302


def test_the_join_page(client: FlaskClient) -> None:
    english(client)
    page = client.get("/join")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert 'name="code"' in html and "field-error" not in html


# --------------------------------------------------------------------------- who wrote


def assert_no_phone_ids(phrases: list[str], history: str, devices: tuple[str, ...]) -> None:
    """Neither a phrase nor the history shows a phone's random id or an access number."""
    assert not [p for p in phrases if re.search(r"\d|[0-9a-f]{6}", p)], phrases
    assert not [d for d in devices if d in history], devices


def test_every_write_names_who_made_it(app: Flask) -> None:
    s = make_setup(app, hand=False)
    api = app.test_client()
    link_id, code_id = access_id(app, "link"), access_id(app, "code")
    # 1: the owner's phone; 2: the link's phone; 3: the API with the owner's token;
    # 4: the API with the link's token; then the code's phone voids hand 1.
    assert s.owner.post(f"/t/{s.tid}/hand/all-pass", data=all_pass_form(1, "k1")).status_code == 302
    assert s.web["link"].post(f"/t/{s.tid}/hand/all-pass", data=all_pass_form(2, "k2")).status_code == 302
    assert (
        api.post(f"{API}/tables/{s.tid}/hands", json=all_pass_record("Bia"), headers=bearer(s.token)).status_code == 201
    )
    assert (
        api.post(f"{API}/tables/{s.tid}/hands", json=all_pass_record("Caio"), headers=bearer(s.api["link"])).status_code
        == 201
    )
    assert s.web["code"].post(f"/t/{s.tid}/hands/1/void", data={"reason": "misdeal"}).status_code == 302
    assert (
        api.post(
            f"{API}/tables/{s.tid}/hands/2/void", json={"reason": "twice"}, headers=bearer(s.api["code"])
        ).status_code
        == 200
    )
    owner_phone, link_phone, code_phone = (device_of(s.web[r]) for r in ("owner", "link", "code"))
    assert len({owner_phone, link_phone, code_phone}) == 3 and all(
        re.fullmatch(r"[0-9a-f]{6}", d) for d in (owner_phone, link_phone)
    )

    with app.app_context():
        hands = {h.number: h for h in ledger.all_hands(ledger.get_table(s.tid))}
        assert hands[1].created_by == f"owner@{owner_phone}"
        assert hands[2].created_by == f"scorer:{link_id}@{link_phone}"
        assert hands[3].created_by == "api/owner"
        assert hands[4].created_by == f"api/scorer:{link_id}"
        assert hands[1].void_event.actor == f"scorer:{code_id}@{code_phone}"
        assert hands[2].void_event.actor == f"api/scorer:{code_id}"
        for hand in hands.values():
            who = access.parse_actor(hand.created_by)
            assert who.role in (access.OWNER, access.SCORER)

    # The API answers say who voided; the history says it all in words.
    voided = api.get(f"{API}/tables/{s.tid}/hands/1").get_json()["voided"]
    assert voided["by"] == f"scorer:{code_id}@{code_phone}" and voided["reason"] == "misdeal"
    history = unescape(s.web["watcher"].get(f"/t/{s.tid}/history").get_data(as_text=True))
    said = {
        code: phrase(app, code, s.tid)
        for code in (
            f"owner@{owner_phone}",
            f"scorer:{link_id}@{link_phone}",
            "api/owner",
            f"api/scorer:{link_id}",
            f"scorer:{code_id}@{code_phone}",
            f"api/scorer:{code_id}",
        )
    }
    # The phrases name the role and the phone by the name its way in was given ("by a scorer:
    # Bia's phone"), never the phone's random id nor an access number...
    assert said[f"owner@{owner_phone}"] == "by the owner"
    assert said[f"scorer:{link_id}@{link_phone}"] == "by a scorer: link's phone"  # its label
    assert said[f"scorer:{code_id}@{code_phone}"] == "by a scorer: code's phone"
    assert said["api/owner"] == "by the API, with the owner's token"
    assert said[f"api/scorer:{link_id}"] == "by the API, with link's access"
    assert_no_phone_ids(list(said.values()), history, (owner_phone, link_phone, code_phone))
    assert len(set(said.values())) == len(said)
    # ...and the history shows each one where it belongs.
    for number, code in (
        (1, f"owner@{owner_phone}"),
        (2, f"scorer:{link_id}@{link_phone}"),
        (3, "api/owner"),
        (4, f"api/scorer:{link_id}"),
    ):
        assert said[code] in hand_of(history, number), (number, code)
    assert said[f"scorer:{code_id}@{code_phone}"] in hand_of(history, 1).split("void-note", 1)[1]
    assert said[f"api/scorer:{code_id}"] in hand_of(history, 2).split("void-note", 1)[1]


def test_the_history_reads_codes_written_before_roles(app: Flask) -> None:
    s = make_setup(app, hand=False)
    with app.app_context():
        table = ledger.get_table(s.tid)
        ledger.record_hand(table, all_pass_record("Dani"), actor=ledger.BY_SCORER)
        ledger.record_hand(table, all_pass_record("Ana"), actor=ledger.BY_API)
        ledger.record_hand(table, all_pass_record("Bia"), actor="")
    history = unescape(s.web["watcher"].get(f"/t/{s.tid}/history").get_data(as_text=True))
    assert phrase(app, ledger.BY_SCORER) in hand_of(history, 1)
    assert phrase(app, ledger.BY_API) in hand_of(history, 2)
    assert phrase(app, ledger.BY_SCORER) != phrase(app, ledger.BY_API)


def test_the_history_says_who_confirmed_a_hand(app: Flask) -> None:
    s = make_setup(app, two_key=True)
    assert s.web["link"].post(f"/t/{s.tid}/hands/1/confirm").status_code == 302
    link_phone = device_of(s.web["link"])
    history = unescape(s.web["watcher"].get(f"/t/{s.tid}/history").get_data(as_text=True))
    # By the name the owner gave that way in, never by the phone's random id.
    assert "confirmed by a scorer: link's phone" in history
    assert link_phone not in history


# --------------------------------------------------------------------------- the owner's controls


def test_house_rules_change_before_the_first_hand_only(app: Flask) -> None:
    s = make_setup(app, hand=False)
    page = s.owner.get(f"/t/{s.tid}/options")
    assert page.status_code == 200
    assert 'name="opt_starting_chips"' in page.get_data(as_text=True)
    assert f'href="/t/{s.tid}/options"' in s.owner.get(f"/t/{s.tid}/share").get_data(as_text=True)
    before = s.snapshot()

    # A bad value: the engine's sentence at the field, nothing stored.
    for value in ("-3", "²", "9" * 12, "lots"):
        bad = s.owner.post(f"/t/{s.tid}/options", data={"opt_starting_chips": value, "opt_chip_value": "0"})
        assert bad.status_code == 422, value
        html = bad.get_data(as_text=True)
        assert field_error(html), value
        assert 'aria-invalid="true"' in html
        assert s.snapshot() == before
    bad = s.owner.post(f"/t/{s.tid}/options", data={"opt_chip_value": "abc", "opt_starting_chips": "0"})
    assert bad.status_code == 422 and s.snapshot() == before
    bad = s.owner.post(
        f"/t/{s.tid}/options", data={"opt_all_pass": "nonsense", "opt_starting_chips": "0", "opt_chip_value": "0"}
    )
    assert bad.status_code == 422 and s.snapshot() == before

    # A good change is stored, and the API shows it.
    good = s.owner.post(
        f"/t/{s.tid}/options",
        data={"opt_starting_chips": "50", "opt_chip_value": "0.25", "opt_overtricks": "y", "opt_all_pass": "redeal"},
    )
    assert good.status_code == 302
    options = app.test_client().get(f"{API}/tables/{s.tid}").get_json()["options"]
    assert options["starting_chips"] == 50 and options["all_pass"] == "redeal"
    assert options["overtricks"] is True and options["overtricks_in_partnerships"] is False
    # The form shows the stored values.
    html = s.owner.get(f"/t/{s.tid}/options").get_data(as_text=True)
    assert re.search(r'name="opt_starting_chips" value="50"', html)

    # After the first hand: refused, on the page and on the form, and nothing changes.
    s.owner.post(f"/t/{s.tid}/hand/all-pass", data=all_pass_form(1, "k1"))
    before = s.snapshot()
    refused = s.owner.get(f"/t/{s.tid}/options")
    assert refused.status_code == 302
    assert flashes(s.owner.get(refused.headers["Location"]).get_data(as_text=True), "error")
    post = s.owner.post(f"/t/{s.tid}/options", data={"opt_starting_chips": "99", "opt_chip_value": "0"})
    assert post.status_code == 302
    assert s.snapshot() == before
    assert f'href="/t/{s.tid}/options"' not in s.owner.get(f"/t/{s.tid}/share").get_data(as_text=True)


def test_a_voided_first_hand_still_closes_the_house_rules(app: Flask) -> None:
    s = make_setup(app)
    s.owner.post(f"/t/{s.tid}/hands/1/void", data={"reason": "misdeal"})
    assert s.owner.get(f"/t/{s.tid}/options").status_code == 302


def test_ending_the_table_needs_the_confirmation_and_stops_every_write(app: Flask) -> None:
    s = make_setup(app)
    assert s.owner.post(f"/t/{s.tid}/end").status_code == 400  # the form's confirm=1 is missing
    assert not s.snapshot()["finished"]
    assert s.owner.post(f"/t/{s.tid}/end", data={"confirm": "1"}).status_code == 302
    assert s.snapshot()["finished"]
    api = app.test_client()
    answer = api.get(f"{API}/tables/{s.tid}").get_json()
    assert answer["finished"] is True
    before = s.snapshot()
    assert (
        api.post(f"{API}/tables/{s.tid}/hands", json=all_pass_record("Ana"), headers=bearer(s.token)).status_code == 409
    )
    assert (
        api.post(f"{API}/tables/{s.tid}/hands/1/void", json={"reason": "x"}, headers=bearer(s.token)).status_code == 409
    )
    s.owner.post(f"/t/{s.tid}/hands/1/void", data={"reason": "x"})
    assert s.snapshot() == before
    # Everything stays readable; the owner's controls for a table still open are gone.
    for path in (f"/t/{s.tid}", f"/t/{s.tid}/history", f"/w/{s.tid}", f"/tv/{s.tid}", f"/t/{s.tid}/settle"):
        assert s.web["watcher"].get(path).status_code == 200
    share = s.owner.get(f"/t/{s.tid}/share").get_data(as_text=True)
    assert f"/t/{s.tid}/end" not in share and f"/t/{s.tid}/options" not in share
    # Closing twice changes nothing.
    assert s.owner.post(f"/t/{s.tid}/end", data={"confirm": "1"}).status_code == 302
    assert s.snapshot() == before


def test_a_hand_saved_on_a_closed_table_gets_a_sentence_not_a_500(app: Flask) -> None:
    app.config["PROPAGATE_EXCEPTIONS"] = False
    s = make_setup(app)
    page = s.web["link"].get(f"/t/{s.tid}/hand?ultima=ouros")  # the scorer starts the next hand
    d = unescape(re.search(r'name="d" value="([^"]*)"', page.get_data(as_text=True)).group(1))
    s.owner.post(f"/t/{s.tid}/end", data={"confirm": "1"})
    saved = s.web["link"].post(f"/t/{s.tid}/hand/all-pass", data={"d": d, "all_pass": "1"})
    assert saved.status_code in (302, 409)  # a sentence, on the flow's page or the table's
    assert len(s.snapshot()["hands"]) == 1
    step = s.web["link"].get(f"/t/{s.tid}/hand", query_string={"d": json.dumps({"ultima": "ouros", "aces": {}})})
    assert step.status_code in (200, 409)
    assert f'href="/t/{s.tid}/hand"' not in s.web["link"].get(f"/t/{s.tid}").get_data(as_text=True)


def test_two_key_on_a_closed_table_is_a_sentence_not_a_500(app: Flask) -> None:
    app.config["PROPAGATE_EXCEPTIONS"] = False
    s = make_setup(app)
    s.owner.post(f"/t/{s.tid}/end", data={"confirm": "1"})
    response = s.owner.post(f"/t/{s.tid}/two-key", data={"on": "1"})
    assert response.status_code < 500
    assert f"/t/{s.tid}/two-key" not in s.owner.get(f"/t/{s.tid}/share").get_data(as_text=True)


def test_no_page_shows_the_table_s_own_token_not_even_to_the_owner(app: Flask) -> None:
    """The owner's token (the API's bearer token) gives every right and cannot be revoked: it
    is never shown after creation. Other phones come in through links and codes."""
    s = make_setup(app)
    for role in ROLES:
        for path in ("", "/share", "/history", "/settle", "/hand"):
            html = s.web[role].get(f"/t/{s.tid}{path}").get_data(as_text=True)
            assert s.token not in html, (role, path)
            for token in (s.api["link"], s.api["code"]):
                assert token not in html, (role, path)
    # A phone that cannot score is told how to get in, not asked for a token.
    html = s.web["watcher"].get(f"/t/{s.tid}").get_data(as_text=True)
    assert 'name="token"' not in html and 'href="/join"' in html


def test_the_owner_hands_the_table_over_through_a_listed_revocable_link(app: Flask) -> None:
    s = make_setup(app, hand=False)
    response = s.owner.post(f"/t/{s.tid}/share/owner", data={"label": "Bia"})
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-store"
    found = re.search(r"data-scoring-link>([^<]+)<", response.get_data(as_text=True))
    assert found
    token = unescape(found.group(1)).strip().rsplit("/j/", 1)[1]
    bia = english(app.test_client())
    assert bia.get(f"/j/{token}").status_code == 302
    # Bia has the owner's controls, through the API too.
    assert bia.get(f"/t/{s.tid}/options").status_code == 200
    assert 'action="/t/' + s.tid + '/end"' in bia.get(f"/t/{s.tid}/share").get_data(as_text=True)
    # Listed on the owner's share page as an owner's access, with its revoke button.
    share = s.owner.get(f"/t/{s.tid}/share").get_data(as_text=True)
    row = re.search(r"<li>\s*<span><b>Bia</b>(.*?)</li>", share, re.S)
    assert row and "owner" in row.group(1) and "/revoke" in row.group(1)
    # Revoked: Bia watches, nothing more.
    with app.app_context():
        bia_id = db.session.scalars(select(Access.id).where(Access.label == "Bia")).one()
    assert s.owner.post(f"/t/{s.tid}/access/{bia_id}/revoke").status_code == 302
    assert bia.get(f"/t/{s.tid}/options").status_code == 403
    assert bia.get(f"/t/{s.tid}/hand").status_code == 403  # told its access was cancelled
    # Only the owner hands a table over.
    assert s.web["link"].post(f"/t/{s.tid}/share/owner").status_code == 403
    assert s.web["watcher"].post(f"/t/{s.tid}/share/owner").status_code == 403


def test_a_phone_can_claim_a_scoring_link_s_token_as_its_scorer_code(app: Flask) -> None:
    s = make_setup(app)
    phone = english(app.test_client())
    phone.post(f"/t/{s.tid}/scorer", data={"token": s.api["link"]})
    assert phone.get(f"/t/{s.tid}/hand").status_code == 200
    assert phone.get(f"/t/{s.tid}/options").status_code == 403  # a scorer, not the owner
    revoked = english(app.test_client())
    revoked.post(f"/t/{s.tid}/scorer", data={"token": s.api["revoked_link"]})
    assert revoked.get(f"/t/{s.tid}/hand").status_code == 401


def test_labels_are_kept_short_and_shown_escaped(app: Flask) -> None:
    s = make_setup(app, hand=False)
    _code, page = join_code(s.owner, s.tid, "  <b>Bia</b>   " + "x" * 80)
    html = page.get_data(as_text=True)
    assert "<b>Bia</b>" not in html and "&lt;b&gt;Bia&lt;/b&gt;" in html
    with app.app_context():
        labels = [a.label for a in db.session.scalars(select(Access))]
    assert max(len(label) for label in labels) <= access.LABEL_MAX
    assert any(label.startswith("<b>Bia</b> x") for label in labels)


def test_hand_events_of_a_refused_confirmation_are_not_stored(app: Flask) -> None:
    s = make_setup(app, two_key=True)
    s.web["watcher"].post(f"/t/{s.tid}/hands/1/confirm")
    s.web["revoked_code"].post(f"/t/{s.tid}/hands/1/dispute")
    with app.app_context():
        assert db.session.query(HandEvent).count() == 0
        assert db.session.query(Hand).count() == 1


def test_the_owner_opening_his_own_scoring_link_or_join_code_stays_the_owner(app: Flask) -> None:
    s = make_setup(app, hand=False)
    link, _page = scoring_link(s.owner, s.tid, "try")
    assert s.owner.get(f"/j/{link}").status_code == 302
    code, _page = join_code(s.owner, s.tid, "try")
    assert redeem(s.owner, code).status_code == 302
    assert s.owner.get(f"/t/{s.tid}/options").status_code == 200
    # A scorer's phone takes the owner's controls when handed them.
    found = re.search(r"data-scoring-link>([^<]+)<", s.owner.post(f"/t/{s.tid}/share/owner").get_data(as_text=True))
    assert found
    assert s.web["link"].get(f"/j/{unescape(found.group(1)).strip().rsplit('/j/', 1)[1]}").status_code == 302
    assert s.web["link"].get(f"/t/{s.tid}/options").status_code == 200


def test_a_phone_forgets_the_tables_it_owns_last(app: Flask) -> None:
    from referee.keyring import REMEMBERED

    s = make_setup(app, hand=False)
    others = [create_table(app.test_client(), language="en") for _ in range(REMEMBERED + 2)]
    for other in others:  # the owner's phone scores at many other tables afterwards
        assert s.owner.post(f"/t/{other['id']}/scorer", data={"token": scoring_link_api(app, other)}).status_code == 302
    with app.app_context():
        held = db.session.scalars(select(PhoneHold.table_id).where(PhoneHold.phone_hash == phone_hash(s.owner))).all()
    assert len(held) == REMEMBERED and s.tid in held
    assert others[0]["id"] not in held and others[1]["id"] not in held  # the oldest scoring ones went
    assert s.owner.get(f"/t/{s.tid}/options").status_code == 200


def phone_hash(client: FlaskClient) -> str:
    """The hash the server keeps of the phone's key."""
    with client.session_transaction() as session:
        return hashlib.sha256(session[phone.KEY].encode()).hexdigest()


def scoring_link_api(app: Flask, table: dict[str, Any]) -> str:
    """A scoring link's token for ``table``, made by its owner's phone."""
    owner = english(app.test_client())
    assert owner.post(f"/t/{table['id']}/scorer", data={"token": table["token"]}).status_code == 302
    return scoring_link(owner, table["id"], "phone")[0]
