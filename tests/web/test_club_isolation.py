"""One club sees nothing of another's, whatever it asks and whoever asks.

The first club (at the root) holds a bit of everything: tables of three games with hands, voids,
corrections and two-key entry, scoring links and a join code, members with a Pix key, a merged
member, a season, ratings, a championship with a drawn round and its cards. Then every route of
the URL map and every operation of the OpenAPI document is asked at a second club's address,
with the first club's ids in it, by a phone that holds everything of the first club (its tables,
its links, the club code typed), by the second club's manager (its own code typed) and by a phone
that holds nothing. No answer names anything of
the first club, no request of an id of it is answered as found, and the first club's data is
the same afterwards. The scope that makes it so is referee/club_scope.py; that every statement
names the club is tests/club_audit.py's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from referee import clubs
from referee.db import db
from referee.models import Access, Championship, Entry, Member, MemberPhone, Season, Table

from .api_support import API
from .championship_support import card_links, create, manager, register
from .test_exports import answers, club, snapshot

OTHER = "outro"
#: Who asks: the first club's manager (its tables, links and code), the second club's manager.
FIRSTS, THEIRS = "first club's phone", "second club's manager"
NAMES = ["Zuleica", "Oswaldo", "Petúnia", "Quirino", "Rosalvo", "Sinésio", "Teodora", "Ubirajara"]
#: Arguments that name something of a club: asking for one of the first club's must find nothing.
#: What every club answers alike (its examples name players): compared with the first club's.
SAME_EVERYWHERE = {f"{API}/openapi.json"}
OWN = {
    "table_id",
    "member_id",
    "championship_id",
    "season_id",
    "access_id",
    "token",
    "reentry_id",
    "team_id",
    "phone_id",
}


@pytest.fixture
def first(app: Flask) -> dict[str, Any]:
    """The first club's data, the phone that made it, and what must never show elsewhere."""
    boss = manager(app)
    setup = club(app, boss)
    cid = create(boss, name="Copa Zuleica")
    register(boss, cid, NAMES)
    assert boss.post(f"/c/{cid}/rounds", data={"seed": "s"}).status_code == 302
    scorer = card_links(boss, cid, 1, "scorer")[0]
    assert boss.get("/league/jubileu").status_code == 200  # the ratings are brought up to date
    with app.app_context():
        ana = db.session.scalar(select(Member.id).where(Member.name == "Ana"))
    bind = re.search(r"data-bind-link>[^<]*/eu/([^<]+)<", boss.post(f"/players/{ana}/phones").get_data(as_text=True))
    assert bind  # a link that binds a phone to Ana: its token is one more of the first club's
    with app.app_context():
        tables = db.session.scalars(select(Table.id)).all()
        people = db.session.scalars(select(Member)).all()
        seasons = db.session.scalars(select(Season)).all()
        values = {
            "table_id": [*setup["open"], *[t for t in tables if t not in setup["open"]][:1]],
            "member_id": [m.id for m in people][:2],
            "championship_id": [cid],
            "season_id": [s.id for s in seasons],
            "access_id": db.session.scalars(select(Access.id)).all()[:2],
            "token": [
                *(link.rsplit("/", 1)[-1] for link in setup["links"].values()),
                scorer.rsplit("/", 1)[-1],
                bind.group(1),
            ],
            "phone_id": db.session.scalars(select(MemberPhone.id)).all(),
            "reentry_id": [1],
            "team_id": [1],
            "number": [1, 6],
            "seat": [1],
            "round_number": [1],
            "table_number": [1],
            "ref": [db.session.scalars(select(Entry.id)).first()],
            "kind": ["entry"],
            "game": ["jubileu", "quatrilho"],
            "slug": ["jubileu"],
        }
        secrets = {
            *(m.name for m in people),
            *(m.pix_key for m in people if m.pix_key),
            *(s.name for s in seasons),
            *(c.name for c in db.session.scalars(select(Championship))),
            *tables,
        }
        _second, second_code = clubs.create("Outro clube", OTHER)
        db.session.commit()
        db.session.remove()
    # The second club's manager: its own code typed at its own address.
    theirs = app.test_client()
    assert theirs.post(f"/k/{OTHER}/club", data={"code": second_code}).status_code == 302
    return {
        "boss": boss,
        "theirs": theirs,
        "theirs_code": second_code,
        "values": values,
        "secrets": secrets,
        "owners": setup["owners"],
        "code": setup["code"],
        "ids": setup["ids"],
    }


def _filled(rule: str, values: dict[str, list[Any]]) -> Iterator[tuple[str, bool]]:
    """``rule`` with each of the first club's values in turn in its first argument of a club's
    own (the others: their first value); and whether it names something of the first club."""
    names = re.findall(r"<(?:[a-z]+:)?([a-z_]+)>", rule)
    own = [name for name in names if name in OWN]
    varied = own[0] if own else (names[0] if names else None)
    for value in values.get(varied, [None]) if varied else [None]:
        path = rule
        for name in names:
            chosen = value if name == varied else values[name][0]
            path = re.sub(rf"<(?:[a-z]+:)?{name}>", str(chosen), path)
        yield path, bool(own)


def _leaks(body: str, path: str, secrets: set[str]) -> list[str]:
    """What of the first club ``body`` names, the request's own path (echoed in a form's
    ``next``, say) aside."""
    rest = body.replace(path, "")
    return sorted(s for s in secrets if re.search(rf"(?<![\w-]){re.escape(s)}(?![\w-])", rest))


def _ask(phone: FlaskClient, method: str, path: str, headers: dict[str, str]) -> Any:
    if method == "GET":
        return phone.get(path, headers=headers)
    if path.startswith(f"/k/{OTHER}{API}"):
        return phone.open(path, method=method, json={}, headers=headers)
    return phone.open(path, method=method, data={}, headers=headers)


def _walk(
    app: Flask, first: dict[str, Any], routes: list[tuple[str, str]], phones: dict[str, FlaskClient]
) -> list[str]:
    found = []
    owner_token = next(iter(first["owners"].values()))
    credentials = {
        FIRSTS: {"Authorization": f"Bearer {owner_token}", "X-Referee-Club-Code": app.config["CLUB_CODE"]},
        THEIRS: {"X-Referee-Club-Code": first["theirs_code"]},
    }
    for rule, method in routes:
        for path, names_own in _filled(rule, first["values"]):
            address = f"/k/{OTHER}{path}"
            for who, phone in phones.items():
                answer = _ask(phone, method, address, credentials.get(who, {}))
                body = answer.get_data(as_text=True)
                where = f"{who} {method} {address} -> {answer.status_code}"
                if answer.status_code >= 500:
                    found.append(f"{where}: a server error")
                if names_own and method == "GET" and answer.status_code == 200:
                    found.append(f"{where}: found")
                if path in SAME_EVERYWHERE:
                    if body != phone.get(path).get_data(as_text=True):
                        found.append(f"{where}: differs from the first club's")
                elif leaked := _leaks(body, address, first["secrets"]):
                    found.append(f"{where}: names {leaked}")
                location = answer.headers.get("Location", "")
                if location and not location.startswith((f"/k/{OTHER}/", f"http://localhost/k/{OTHER}/")):
                    found.append(f"{where}: sends to {location}")
    return found


def _routes(app: Flask) -> list[tuple[str, str]]:
    skip = ("/static/", "/sw.js", "/lang/")  # the site's files and the language switch
    return sorted(
        (rule.rule, method)
        for rule in app.url_map.iter_rules()
        if not rule.rule.startswith(skip)
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"})
    )


def test_no_route_at_another_clubs_address_reaches_the_first_clubs_data(app: Flask, first: dict[str, Any]) -> None:
    before = snapshot(app)
    ids = first["ids"]
    before_answers = answers(app.test_client(), ids)
    routes = _routes(app)
    assert len(routes) > 120, len(routes)
    phones = {FIRSTS: first["boss"], THEIRS: first["theirs"], "a phone with nothing": app.test_client()}
    assert _walk(app, first, routes, phones) == []
    assert snapshot(app) == before
    assert answers(app.test_client(), ids) == before_answers


def test_no_operation_of_the_api_at_another_clubs_address_reaches_the_first_clubs_data(
    app: Flask, client: FlaskClient, first: dict[str, Any]
) -> None:
    document = client.get(f"{API}/openapi.json").get_json()
    routes = sorted(
        (API + re.sub(r"\{([a-z_]+)\}", r"<\1>", path), method.upper())
        for path, item in document["paths"].items()
        for method in item
        if method in ("get", "post", "put", "patch", "delete")
    )
    assert len(routes) > 20, routes
    before = snapshot(app)
    phones = {FIRSTS: first["boss"], THEIRS: first["theirs"], "a phone with nothing": app.test_client()}
    assert _walk(app, first, routes, phones) == []
    assert snapshot(app) == before


def test_the_first_club_still_sees_its_own(app: Flask, first: dict[str, Any]) -> None:
    """The walk's counterpart: at the first club's own address the same phone finds it all (so
    the walk's "nothing found" is the other club's doing, not a broken id)."""
    boss = first["boss"]
    for table_id in first["values"]["table_id"]:
        assert boss.get(f"/t/{table_id}").status_code == 200
    for member_id in first["values"]["member_id"]:
        assert boss.get(f"/players/{member_id}").status_code == 200
    page = boss.get(f"/c/{first['values']['championship_id'][0]}")
    assert page.status_code == 200 and "Copa Zuleica" in page.get_data(as_text=True)
    assert "Zuleica" in boss.get("/players").get_data(as_text=True)
