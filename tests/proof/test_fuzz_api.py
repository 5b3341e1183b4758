"""Schemathesis against the app's own OpenAPI document (GET /api/v1/openapi.json), in-process on
the Flask app (WSGI), with a fresh app and database.

Every operation is fuzzed with positive and negative data. To get past "no such table" and
"401", the cases are steered (schemathesis hooks) to tables that exist, one or more of each game,
with their scorer token; hand numbers to hands that exist; and a share of the hand bodies are
real records for the table's next dealer, sometimes as a correction (``replaces``), with or
without an Idempotency-Key from a small pool, so hands really get stored, voided, corrected, a
Samba match ends and a rematch starts. Checks: no 5xx, and the response conforms to the document
(status code, content type, body schema). After the run, no table's cached state may differ from
the state rebuilt from its hands.

Known bugs (each with a strict-xfail test here or in conftest.KNOWN_BUGS) are let through and
counted, precisely, so that the fuzz goes on looking for others.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import schemathesis
from flask import Flask, got_request_exception
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.generation.meta import TestPhase
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from sqlalchemy import select

from referee import ledger
from referee.api.openapi import document
from referee.extensions import db
from referee.models import Table
from tests.bench import hands as jubileu_hands
from tests.bench import quatrilho_hands, samba_hands

from .conftest import BACKEND, dispose, fresh_database, in_process_app, known_bug, ledger_problems

#: Hypothesis examples per operation (one test per operation of the document), on top of
#: schemathesis' coverage phase (boundary and missing-field cases). PROOF_FUZZ_EXAMPLES overrides.
EXAMPLES = int(os.environ.get("PROOF_FUZZ_EXAMPLES", "300" if BACKEND == "sqlite" else "120"))
MIN_REQUESTS = 2000 if EXAMPLES >= 300 else 0

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@dataclass
class Known:
    """A table made before the run: id, token, game, players."""

    id: str
    token: str
    game: str
    players: tuple[str, ...]


@dataclass
class Fuzz:
    app: Flask
    tables: list[Known]
    requests: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    crashes: list[str] = field(default_factory=list)
    ran: bool = False
    by_operation: dict[str, int] = field(default_factory=dict)
    known: int = 0  # answers showing the known contract.partner mismatch (let through)
    crash_now: str | None = None  # the known bug (conftest.KNOWN_BUGS) the request in progress crashed on
    known_crashes: dict[str, int] = field(default_factory=dict)
    known_responses: set[int] = field(default_factory=set)  # id() of responses to let through


def _next_record(app: Flask, known: Known, variant: int) -> dict[str, Any]:
    """A valid record for the table's next hand (its dealer now), from the benchmark templates."""
    with app.app_context():
        table = ledger.get_table(known.id)
        dealer = ledger.current_dealer(table)
        db.session.remove()
    if known.game == "jubileu":
        return jubileu_hands.render(
            jubileu_hands.TEMPLATES[variant % len(jubileu_hands.TEMPLATES)][1], known.players, dealer
        )
    if known.game == "quatrilho":
        return quatrilho_hands.render(
            quatrilho_hands.TEMPLATES[variant % len(quatrilho_hands.TEMPLATES)][1], known.players, dealer
        )
    template = samba_hands.TEMPLATES[variant % len(samba_hands.TEMPLATES)][1]
    out = template["went_out"]
    return {"dealer": dealer, "went_out": known.players[out] if out is not None else None, "teams": template["teams"]}


def _make_tables(app: Flask) -> list[Known]:
    made = []
    specs = [
        ("jubileu", jubileu_hands.PLAYERS, {}),
        ("jubileu", jubileu_hands.PLAYERS, {"starting_chips": 50, "chip_value": "0,25"}),
        ("quatrilho", quatrilho_hands.PLAYERS, {}),
        ("quatrilho", quatrilho_hands.PLAYERS[:4], {}),
        ("samba", samba_hands.PLAYERS, {}),
        ("samba", samba_hands.PLAYERS, {"target": 3000}),  # ends after a few hands: rematch reachable
    ]
    client = app.test_client()
    for game, players, options in specs:
        answer = client.post("/api/v1/tables", json={"game": game, "players": list(players), "options": options})
        assert answer.status_code == 201, answer.get_data(as_text=True)
        body = answer.get_json()
        known = Known(body["id"], body["token"], game, tuple(players))
        for k in range(3):
            hand = client.post(
                f"/api/v1/tables/{known.id}/hands",
                json=_next_record(app, known, k),
                headers={"Authorization": f"Bearer {known.token}"},
            )
            assert hand.status_code == 201, hand.get_data(as_text=True)
        made.append(known)
    return made


@pytest.fixture(scope="module")
def fuzz(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fuzz]:
    workdir = tmp_path_factory.mktemp("fuzz-api")
    with fresh_database(workdir) as url:
        app = in_process_app(url, workdir / "instance")  # not TESTING: a crash answers 500, as in production
        state = Fuzz(app=app, tables=_make_tables(app))

        def crashed(sender: Flask, exception: BaseException, **extra: Any) -> None:
            label = known_bug(exception)
            if label is None:
                state.crashes.append(f"{type(exception).__name__}: {exception}"[:500])
            else:
                state.crash_now = label

        got_request_exception.connect(crashed, app)
        CURRENT.append(state)
        try:
            yield state
        finally:
            CURRENT.remove(state)
            got_request_exception.disconnect(crashed, app)
            dispose(app)


#: The document the app serves (GET /api/v1/openapi.json), built here at import so that pytest
#: gets one test per operation; the first test checks that the app serves exactly this. The cases
#: are sent to the module's app in-process (WSGI, ``app=``), under the document's relative server.
#: (Not ``schemathesis.pytest.from_fixture``: its lazy loader reads ``request.node._nodeid``,
#: which pytest 9 no longer has, and fails with AttributeError.)
schema = schemathesis.openapi.from_dict(document())
CURRENT: list[Fuzz] = []  # the module's fuzz state, for the hooks
KEYS = ["k1", "k2", "k3"]  # a small pool of Idempotency-Keys, so keys get reused (replays and refusals)


def _steer(case: Any, rnd: random.Random) -> Any:
    """Point the case at a real table (mostly) with its token (mostly), at real hand numbers, and
    now and then give it a real record for the table's next hand."""
    params = case.path_parameters or {}
    if "table_id" not in params or not CURRENT:
        return case
    fuzz = CURRENT[-1]
    if rnd.randrange(10) == 0:
        return case  # as generated: unknown tables, no or wrong tokens
    known = rnd.choice(fuzz.tables)
    params["table_id"] = known.id
    if "number" in params:
        params["number"] = rnd.randint(1, 8)
    if case.operation.definition.raw.get("security") and rnd.randrange(10) > 0:
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {known.token}"}
    path = case.operation.path
    if (
        case.operation.method.upper() == "POST"
        and path.endswith(("/hands", "/hands/preview"))
        and rnd.randrange(2) == 0
    ):
        body = _next_record(fuzz.app, known, rnd.randrange(9))
        if path.endswith("/hands"):
            extra = rnd.choice(["none", "expected", "stale", "replaces", "key"])
            if extra in ("expected", "stale"):
                with fuzz.app.app_context():
                    number = ledger.next_number(ledger.get_table(known.id))
                    db.session.remove()
                body["expected_number"] = number if extra == "expected" else max(1, number - 1)
            elif extra == "replaces":
                body["replaces"] = rnd.randint(1, 8)
                body["reason"] = "fuzz"
            elif extra == "key":
                case.headers = {**(case.headers or {}), "Idempotency-Key": rnd.choice(KEYS)}
        case.body = body
    return case


@schema.hook
def flatmap_case(context: Any, case: Any) -> Any:
    return st.randoms(use_true_random=False).map(lambda rnd: _steer(case, rnd))


COVERAGE_RANDOM = random.Random(2024)  # the coverage phase's cases come in a fixed order


@schemathesis.hook  # before_call exists only as a global hook; it acts only while this module's fixture is up
def before_call(context: Any, case: Any, kwargs: Any) -> None:
    """Schemathesis' coverage phase (boundary values, missing and unexpected fields, one case
    each) does not go through flatmap_case: point those at real tables too, keeping whatever the
    scenario is about (a missing Authorization stays missing, a bad number stays bad)."""
    phase = getattr(case.meta, "phase", None) if case.meta else None
    if not CURRENT or phase is None or phase.name is not TestPhase.COVERAGE:
        return
    if case.operation.schema.raw_schema.get("info", {}).get("title") != "Referee API":
        return
    params = case.path_parameters or {}
    about = getattr(phase.data, "parameter", None)
    if "table_id" not in params or about == "table_id" or COVERAGE_RANDOM.randrange(10) == 0:
        return
    known = COVERAGE_RANDOM.choice(CURRENT[-1].tables)
    params["table_id"] = known.id
    if "number" in params and about != "number":
        params["number"] = COVERAGE_RANDOM.randint(1, 8)
    headers = case.headers or {}
    if "Authorization" in headers and about != "Authorization":
        headers["Authorization"] = f"Bearer {known.token}"


@schema.hook
def after_call(context: Any, case: Any, response: Any) -> None:
    if CURRENT:
        fuzz = CURRENT[-1]
        if fuzz.crash_now is not None:
            fuzz.known_crashes[fuzz.crash_now] = fuzz.known_crashes.get(fuzz.crash_now, 0) + 1
            fuzz.known_responses.add(id(response))
            fuzz.crash_now = None
        fuzz.requests += 1
        fuzz.statuses[response.status_code] = fuzz.statuses.get(response.status_code, 0) + 1
        label = f"{case.operation.method.upper()} {case.operation.path} {response.status_code}"
        fuzz.by_operation[label] = fuzz.by_operation.get(label, 0) + 1


@schema.hook
def filter_failure(context: Any, failure: Any, case: Any, response: Any) -> bool:
    if CURRENT and id(response) in CURRENT[-1].known_responses:
        return False  # a crash on a known bug (conftest.KNOWN_BUGS), counted in after_call
    return True


def test_the_app_serves_the_document_under_test(fuzz: Fuzz) -> None:
    served = fuzz.app.test_client().get("/api/v1/openapi.json")
    assert served.status_code == 200
    assert served.get_json() == document()


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)
def test_openapi_operations_never_fail_and_answer_as_documented(case: Any, fuzz: Fuzz) -> None:
    fuzz.ran = True
    # identity: the app gzips JSON for clients that ask, and the WSGI transport would not unzip it
    case.call_and_validate(app=fuzz.app, checks=CHECKS, headers={"Accept-Encoding": "identity"})


def test_a_quatrilho_hand_without_a_partner_answers_as_documented(fuzz: Fuzz) -> None:
    import jsonschema

    known = next(t for t in fuzz.tables if t.game == "quatrilho")
    client = fuzz.app.test_client()
    with fuzz.app.app_context():
        dealer = ledger.current_dealer(ledger.get_table(known.id))
        db.session.remove()
    answer = client.post(
        f"/api/v1/tables/{known.id}/hands",
        json={"dealer": dealer, "mode": "monte"},
        headers={"Authorization": f"Bearer {known.token}"},
    )
    assert answer.status_code == 201, answer.get_data(as_text=True)
    components = document()["components"]
    validator = jsonschema.Draft202012Validator({"$ref": "#/components/schemas/HandAnswer", "components": components})
    errors = [f"{e.json_path}: {e.message}" for e in validator.iter_errors(answer.get_json())]
    assert not errors, errors


def test_text_with_a_nul_character_is_never_a_server_error(fuzz: Fuzz) -> None:
    client = fuzz.app.test_client()
    players = list(jubileu_hands.PLAYERS)
    statuses = {
        "player name": client.post(
            "/api/v1/tables", json={"game": "jubileu", "players": ["A\x00na", *players[1:]]}
        ).status_code,
        "table name": client.post(
            "/api/v1/tables", json={"game": "jubileu", "players": players, "name": "x\x00"}
        ).status_code,
    }
    table = client.post("/api/v1/tables", json={"game": "jubileu", "players": players}).get_json()
    known = Known(table["id"], table["token"], "jubileu", tuple(players))
    auth = {"Authorization": f"Bearer {known.token}"}
    statuses["Idempotency-Key"] = client.post(
        f"/api/v1/tables/{known.id}/hands",
        json=_next_record(fuzz.app, known, 2),
        headers={**auth, "Idempotency-Key": "k\x00"},
    ).status_code
    client.post(f"/api/v1/tables/{known.id}/hands", json=_next_record(fuzz.app, known, 2), headers=auth)
    statuses["void reason"] = client.post(
        f"/api/v1/tables/{known.id}/hands/1/void", json={"reason": "a\x00b"}, headers=auth
    ).status_code
    assert all(status < 500 for status in statuses.values()), statuses


def test_lone_surrogates_deep_nesting_huge_numbers_and_odd_languages_are_refused_not_server_errors(fuzz: Fuzz) -> None:
    """What schemathesis rarely draws, sent to the production-like app (a crash answers 500)."""
    client = fuzz.app.test_client()
    players = list(jubileu_hands.PLAYERS)
    table = client.post("/api/v1/tables", json={"game": "jubileu", "players": players}).get_json()
    known = Known(table["id"], table["token"], "jubileu", tuple(players))
    auth = {"Authorization": f"Bearer {known.token}"}
    hands = f"/api/v1/tables/{known.id}/hands"
    assert client.post(hands, json=_next_record(fuzz.app, known, 2), headers=auth).status_code == 201
    lone = '"\\ud800"'  # a lone surrogate as JSON writes it
    export = client.get(f"/api/v1/tables/{known.id}/export").get_data(as_text=True)
    sent = {
        "player name": ("/api/v1/tables", f'{{"game": "jubileu", "players": [{lone}, "Bia", "Caio", "Dani"]}}', {}),
        "void reason": (f"{hands}/1/void", f'{{"reason": {lone}}}', auth),
        "correction reason": (
            hands,
            json.dumps({**_next_record(fuzz.app, known, 2), "replaces": 1, "reason": "@"}).replace('"@"', lone),
            auth,
        ),
        "import names": (
            "/api/v1/import",
            export.replace(known.id, "f" * len(known.id)).replace(json.dumps(players[0]), lone),
            {"X-Referee-Club-Code": fuzz.app.config["CLUB_CODE"]},
        ),
        "deep array": (hands, "[" * 30000, auth),
        "deep object": (hands, '{"a":' * 12000, auth),
        "deep, no token": (hands, "[" * 30000, {}),
        "deep table": ("/api/v1/tables", "[" * 30000, {}),
    }
    statuses = {
        name: client.post(path, data=body, content_type="application/json", headers=headers).status_code
        for name, (path, body, headers) in sent.items()
    }
    for number in (2**31, 2**64, 10**20):
        statuses[f"hand {number}"] = client.get(f"{hands}/{number}").status_code
        statuses[f"season {number}"] = client.get(f"/api/v1/seasons/{number}/export").status_code
        statuses[f"standings {number}"] = client.get(
            "/api/v1/league/jubileu/standings", query_string={"season": number}
        ).status_code
    statuses["empty language"] = client.post("/api/v1/samba/meld-check?language=", json={}).status_code
    assert all(400 <= status < 500 for status in statuses.values()), statuses
    assert client.get(f"/api/v1/tables/{known.id}").get_json()["next_number"] == 2, "a refused write stored a hand"


def test_after_the_fuzz_every_table_state_is_rebuilt_from_its_hands(fuzz: Fuzz) -> None:
    """No half-stored hand: every table (rematches included) holds the state its hands say."""
    problems: list[str] = []
    with fuzz.app.app_context():
        ids = list(db.session.scalars(select(Table.id)))
        db.session.remove()
    for table_id in ids:
        problems += ledger_problems(fuzz.app, table_id)
    summary = (
        f"{fuzz.requests} requests, statuses {dict(sorted(fuzz.statuses.items()))}, {len(ids)} tables, "
        f"{fuzz.known} answers with the known null contract.partner, known crashes {fuzz.known_crashes or 'none'}"
    )
    print(summary)
    print("\n".join(f"{k}: {v}" for k, v in sorted(fuzz.by_operation.items())))
    assert not fuzz.crashes, f"{summary}; unhandled exceptions: {fuzz.crashes[:5]}"
    assert not problems, f"{summary}\n" + "\n".join(problems[:20])
    if fuzz.ran:
        assert fuzz.requests >= MIN_REQUESTS, summary
