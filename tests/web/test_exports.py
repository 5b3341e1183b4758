"""Exports, import, backup and restore (referee.exports, referee.cli).

The proof of "export, import and compare": a table of each game, played with voids,
corrections and two-key confirmations, is exported, imported into a fresh database and exported
again: the two exports are equal (but for when they were made), and so are the tables as the API
answers them (every hand's result, status, void and confirmation), the totals and the league's
standings. Refused imports store nothing. A backup restored from the command line into an empty
database keeps every owner token and scoring link working.
"""

from __future__ import annotations

import copy
import csv
import io
import json
import os
import stat
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from referee import access, league, ledger, members
from referee.extensions import db
from referee.models import Access, Hand, HandEvent, Member, Season, Table
from tests.bench import hands as jubileu_hands
from tests.bench import quatrilho_hands, samba_hands
from tests.hypothesis_settings import SLOW
from tests.web.league_audit import standings_from_hands

from .api_support import API, assert_error

# --------------------------------------------------------------------------- helpers


@pytest.fixture
def fresh(make_app: Callable[..., Flask], tmp_path: Path) -> Callable[[], Flask]:
    """Makes, when called, a second app on an empty database: a new in-memory SQLite, or on
    PostgreSQL the same server database emptied (so call it once the first app's figures are
    taken)."""
    return lambda: make_app({"INSTANCE_PATH": str(tmp_path / "fresh")}, empty=True)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Play:
    """One table played through the API: each hand from the benchmark templates in turn, for
    the dealer the table says deals now (or, for a correction, the corrected hand's dealer)."""

    def __init__(self, client: FlaskClient, game: str, players: tuple[str, ...], table_id: str, token: str) -> None:
        self.client, self.game, self.players, self.id, self.token = client, game, players, table_id, token
        self.variant = 0

    @classmethod
    def new(cls, client: FlaskClient, game: str, players: tuple[str, ...], **fields: Any) -> Play:
        response = client.post(f"{API}/tables", json={"game": game, "players": list(players), **fields})
        assert response.status_code == 201, response.get_data(as_text=True)
        return cls(client, game, players, response.get_json()["id"], response.get_json()["token"])

    def record(self, dealer: str | None = None) -> dict[str, Any]:
        dealer = dealer or self.client.get(f"{API}/tables/{self.id}").get_json()["next_dealer"]
        variant, self.variant = self.variant, self.variant + 1
        if self.game == "jubileu":
            return jubileu_hands.render(
                jubileu_hands.TEMPLATES[variant % len(jubileu_hands.TEMPLATES)][1], self.players, dealer
            )
        if self.game == "quatrilho":
            return quatrilho_hands.render(
                quatrilho_hands.TEMPLATES[variant % len(quatrilho_hands.TEMPLATES)][1], self.players, dealer
            )
        template = samba_hands.TEMPLATES[variant % len(samba_hands.TEMPLATES)][1]
        out = template["went_out"]
        return {
            "dealer": dealer,
            "went_out": self.players[out] if out is not None else None,
            "teams": template["teams"],
        }

    def hand(self, token: str | None = None, **extra: Any) -> dict[str, Any]:
        dealer = None
        if "replaces" in extra:
            dealer = self.client.get(f"{API}/tables/{self.id}/hands/{extra['replaces']}").get_json()["dealer"]
        body = {**self.record(dealer), **extra}
        response = self.client.post(f"{API}/tables/{self.id}/hands", json=body, headers=bearer(token or self.token))
        assert response.status_code == 201, response.get_data(as_text=True)
        return response.get_json()

    def step(self, number: int, action: str, token: str | None = None, **body: Any) -> dict[str, Any]:
        response = self.client.post(
            f"{API}/tables/{self.id}/hands/{number}/{action}", json=body, headers=bearer(token or self.token)
        )
        assert response.status_code == 200, response.get_data(as_text=True)
        return response.get_json()


PLAYERS = {"jubileu": jubileu_hands.PLAYERS, "quatrilho": quatrilho_hands.PLAYERS, "samba": samba_hands.PLAYERS}


def with_table(app: Flask, table_id: str, change: Any) -> Any:
    with app.app_context():
        result = change(ledger.get_table(table_id))
        db.session.remove()
        return result


def scoring_link(app: Flask, table_id: str, label: str = "Bia") -> str:
    return with_table(app, table_id, lambda t: access.create_link(t, label)[1])


def answers(client: FlaskClient, ids: list[str]) -> list[dict[str, Any]]:
    """The tables as GET /tables/{id} answers them: every hand's result, status, void and
    confirmation, the totals, the dealer, the match and the rematch."""
    out = []
    for table_id in ids:
        response = client.get(f"{API}/tables/{table_id}")
        assert response.status_code == 200
        out.append(response.get_json())
    return out


def export(client: FlaskClient, ids: list[str]) -> dict[str, Any]:
    documents = []
    for table_id in ids:
        response = client.get(f"{API}/tables/{table_id}/export")
        assert response.status_code == 200, response.get_data(as_text=True)
        assert response.headers["Content-Disposition"] == f'attachment; filename="referee-{table_id}.json"'
        documents.append(response.get_json())
    merged = documents[0]
    merged["tables"] = [t for d in documents for t in d["tables"]]
    return merged


def without_time(document: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in document.items() if k != "exported_at"}


def league_figures(app: Flask, games: set[str]) -> dict[str, Any]:
    """Standings by name (member ids differ between databases), from the seats and from the hands."""
    with app.app_context():
        figures = {}
        for game in sorted(games):
            for how in (league.standings, standings_from_hands):
                rows = [{k: v for k, v in row.as_json().items() if k != "member_id"} for row in how(game)]
                figures[f"{game} {how.__name__}"] = rows
        db.session.remove()
        return figures


def count(app: Flask, model: Any) -> int:
    with app.app_context():
        n = db.session.scalar(select(func.count()).select_from(model)) or 0
        db.session.remove()
        return n


def club_header(client: FlaskClient) -> dict[str, str]:
    """The header an import needs: the club's code."""
    return {"X-Referee-Club-Code": client.application.config["CLUB_CODE"]}


def import_(client: FlaskClient, document: Any, **kw: Any) -> Any:
    return client.post(f"{API}/import", json=document, headers=club_header(client), **kw)


# --------------------------------------------------------------------------- the games


def jubileu(app: Flask, client: FlaskClient) -> list[Play]:
    """Hands, a void, a correction, then two-key entry: a hand recorded through a scoring link
    and confirmed by the owner, one disputed then confirmed, one left to confirm; the table is
    closed at the end."""
    play = Play.new(
        client, "jubileu", jubileu_hands.PLAYERS, name="Quinta", options={"starting_chips": 50, "chip_value": "0,25"}
    )
    for _ in range(4):
        play.hand()
    play.step(2, "void", reason="wrong sheet")
    play.hand(replaces=3, reason="tricks were 7")
    with_table(app, play.id, lambda t: ledger.set_two_key(t, on=True))
    link = scoring_link(app, play.id)
    play.hand(token=link)
    play.step(6, "confirm")
    play.hand(token=link)
    play.step(7, "dispute", reason="Dani had 3 aces")
    play.step(7, "confirm")
    play.hand(token=link)
    with_table(app, play.id, ledger.finish_table)
    return [play]


def quatrilho(app: Flask, client: FlaskClient) -> list[Play]:
    """Five players (the dealer sits out), a void, two corrections, the last round declared."""
    play = Play.new(client, "quatrilho", quatrilho_hands.PLAYERS)
    for _ in range(6):
        play.hand()
    play.step(4, "void", reason="misdeal")
    play.hand(replaces=2, reason="figures")
    play.hand(replaces=7, reason="figures again")
    with_table(app, play.id, lambda t: ledger.declare_last_round(t, on=True))
    play.hand()
    return [play]


def samba(app: Flask, client: FlaskClient) -> list[Play]:
    """A short match (target 3,000) whose last hand is voided, which reopens it; it is won
    again, and a rematch is played with a hand left to confirm."""
    play = Play.new(client, "samba", samba_hands.PLAYERS, options={"target": 3000})
    answer: dict[str, Any] = {}
    while not answer.get("finished"):
        answer = play.hand()
    last = answer["number"]
    play.step(last, "void", reason="counted twice")
    answer = {}
    while not answer.get("finished"):
        answer = play.hand()
    response = client.post(f"{API}/tables/{play.id}/rematch", headers=bearer(play.token))
    assert response.status_code == 201, response.get_data(as_text=True)
    second = response.get_json()
    rematch = Play(client, "samba", samba_hands.PLAYERS, second["id"], second["token"])
    rematch.hand()
    with_table(app, rematch.id, lambda t: ledger.set_two_key(t, on=True))
    link = scoring_link(app, rematch.id, "Caio")
    rematch.hand(token=link)
    return [play, rematch]


GAMES = {"jubileu": jubileu, "quatrilho": quatrilho, "samba": samba}


def ids_of(*groups: list[Play]) -> list[str]:
    return [play.id for group in groups for play in group]


# --------------------------------------------------------------------------- round trip


@pytest.mark.parametrize("game", sorted(GAMES))
def test_export_import_export_is_the_same(
    app: Flask, client: FlaskClient, fresh: Callable[[], Flask], game: str
) -> None:
    ids = ids_of(GAMES[game](app, client))
    first = export(client, ids)
    before = answers(client, ids)
    standings = league_figures(app, {game})
    assert [t["id"] for t in first["tables"]] == ids
    assert any(h.get("replaces") for t in first["tables"] for h in t["hands"]) or game == "samba"
    assert any(e["kind"] == "void" for t in first["tables"] for h in t["hands"] for e in h["events"])

    second = fresh()
    other = second.test_client()
    # Listed rematch first: the import stores the table it follows first all the same.
    response = import_(other, {**first, "tables": list(reversed(first["tables"]))})
    assert response.status_code == 201, response.get_data(as_text=True)
    made = response.get_json()
    assert sorted(m["id"] for m in made) == sorted(ids)
    assert [m["id"] for m in made] == ids  # stored in an order where a rematch follows its table

    assert without_time(export(other, ids)) == without_time(first)
    assert answers(other, ids) == before
    assert league_figures(second, {game}) == standings
    with second.app_context():
        for table_id, answer in zip(ids, before):
            table = ledger.get_table(table_id)
            assert ledger.totals(table) == answer["totals"]
            assert ledger.rebuild_state(table) == table.state  # the cached state is the hands' own


def test_every_game_at_once_and_a_new_token_that_works(
    app: Flask, client: FlaskClient, fresh: Callable[[], Flask]
) -> None:
    ids = ids_of(*(make(app, client) for make in GAMES.values()))
    first = export(client, ids)
    standings = league_figures(app, set(GAMES))
    second = fresh()
    other = second.test_client()
    made = import_(other, first).get_json()
    assert without_time(export(other, ids)) == without_time(first)
    assert league_figures(second, set(GAMES)) == standings
    # The quatrilho table is open: its new owner token records the next hand.
    token = {m["id"]: m["token"] for m in made}[ids[1]]
    play = Play(other, "quatrilho", quatrilho_hands.PLAYERS, ids[1], token)
    assert play.hand()["number"] == len(first["tables"][1]["hands"]) + 1


def test_a_table_without_hands_and_with_a_clock(app: Flask, client: FlaskClient, fresh: Callable[[], Flask]) -> None:
    play = Play.new(client, "samba", ("Ana", "Bia", "Caio", "Dani", "Edu", "Fê"), language="en", two_key=True)
    with app.app_context():
        table = ledger.get_table(play.id)
        table.ends_at = table.created_at + timedelta(hours=3)
        db.session.commit()
    first = export(client, [play.id])
    assert first["tables"][0]["hands"] == [] and first["tables"][0]["ends_at"]
    assert first["tables"][0]["teams"] == [["Ana", "Caio", "Edu"], ["Bia", "Dani", "Fê"]]
    second = fresh()
    assert import_(second.test_client(), first).status_code == 201
    assert without_time(export(second.test_client(), [play.id])) == without_time(first)


def test_an_export_holds_no_secrets(app: Flask, client: FlaskClient) -> None:
    ids = ids_of(jubileu(app, client))
    with app.app_context():
        member = db.session.scalars(select(Member).where(Member.name == "Ana")).one()
        member.pix_key, member.pix_city = "ana@example.com", "Porto Alegre"
        db.session.commit()
        hashes = [t.scorer_token_hash for t in db.session.scalars(select(Table))] + [
            a.token_hash for a in db.session.scalars(select(Access))
        ]
    text = client.get(f"{API}/tables/{ids[0]}/export").get_data(as_text=True)
    assert "ana@example.com" not in text and "pix" not in text
    assert all(h and h not in text for h in hashes)
    assert "token" not in text


# --------------------------------------------------------------------------- refusals


def test_an_import_needs_the_club_code_and_wrong_codes_are_rate_limited(app: Flask, client: FlaskClient) -> None:
    empty = {"format": "referee-export", "version": 1, "tables": []}
    assert_error(client.post(f"{API}/import", json=empty), 401)
    wrong = "x" + app.config["CLUB_CODE"]
    for _ in range(10):
        assert_error(client.post(f"{API}/import", json=empty, headers={"X-Referee-Club-Code": wrong}), 401)
    # Ten wrong codes: now even the right one waits (a six-digit code must not be guessable).
    assert_error(import_(client, empty), 429)


def test_a_body_that_is_not_an_export_is_a_400(client: FlaskClient) -> None:
    assert_error(
        client.post(f"{API}/import", data="{", content_type="application/json", headers=club_header(client)), 400
    )
    assert_error(import_(client, ["tables"]), 400)
    assert_error(import_(client, {"format": "something-else", "version": 1, "tables": []}), 400, field="format")
    assert_error(import_(client, {"format": "referee-export", "version": 2, "tables": []}), 400, field="version")
    assert_error(import_(client, {"format": "referee-export", "version": 1}), 400, field=".tables")


@pytest.mark.parametrize(
    ("doctor", "field"),
    [
        (lambda t: t.update(id="short"), "tables[0].id"),
        (lambda t: t["hands"][1].update(number=5), "tables[0].hands[1].number"),
        (lambda t: t["hands"][0].update(created_at="yesterday"), "tables[0].hands[0].created_at"),
        (lambda t: t["hands"][0].update(created_at="0001-01-01T00:00:00+01:00"), "tables[0].hands[0].created_at"),
        # The ends of the calendar: stored, they would break every page that shows the day.
        (lambda t: t.update(created_at="0001-01-01T00:00:00Z"), "tables[0].created_at"),
        (lambda t: t.update(created_at="9999-12-31T23:00:00Z"), "tables[0].created_at"),
        (
            lambda t: t["hands"][0]["events"].append(
                {"kind": "erase", "reason": "", "actor": "", "at": t["created_at"]}
            ),
            "tables[0].hands[0].events[0]",
        ),
        (lambda t: t["hands"][2].update(replaces=3), "tables[0].hands[2].replaces"),
        (lambda t: t["hands"][0].update(created_by="x" * 61), "tables[0].hands[0].created_by"),
        (lambda t: t["members"].update(Ana="A\x00na"), "tables[0].members.Ana"),
        (lambda t: t.update(last_round_from=10**12), "tables[0].last_round_from"),
        (lambda t: t.update(players="Ana, Bia"), "tables[0].players"),
        (lambda t: t.update(players=["Ana", "Bia", "Caio", "Dani\x00"]), "tables[0].players[3]"),
    ],
)
def test_a_malformed_export_is_a_400_and_stores_nothing(
    app: Flask, client: FlaskClient, fresh: Callable[[], Flask], doctor: Any, field: str
) -> None:
    document = export(client, ids_of(jubileu(app, client)))
    doctor(document["tables"][0])
    second = fresh()
    assert_error(import_(second.test_client(), document), 400, field=field)
    assert count(second, Table) == 0 and count(second, Member) == 0


def test_tables_that_cannot_be_told_apart_or_ordered_are_a_400(
    app: Flask, client: FlaskClient, fresh: Callable[[], Flask]
) -> None:
    ids = ids_of(samba(app, client))
    document = export(client, ids)
    twice = {**document, "tables": [document["tables"][0], document["tables"][0]]}
    second = fresh()
    assert_error(import_(second.test_client(), twice), 400, field="tables[1].id")
    circle = copy.deepcopy(document)
    circle["tables"][0]["follows"] = ids[1]  # each the rematch of the other
    assert_error(import_(second.test_client(), circle), 400)
    assert count(second, Table) == 0


def test_a_rematch_imported_without_the_table_it_follows_is_a_400(
    app: Flask, client: FlaskClient, fresh: Callable[[], Flask]
) -> None:
    """Else it would become the rematch of a stored table it was never played after (taking
    that table's one rematch), or of nothing."""
    first, rematch = export(client, ids_of(samba(app, client)))["tables"]
    document = export(client, [first["id"]])
    second = fresh()
    other = second.test_client()
    assert import_(other, document).status_code == 201  # the first match alone: nothing follows
    alone = {**document, "tables": [rematch]}
    error = assert_error(import_(other, alone), 400, field="tables[0].follows")
    assert first["id"] in error["message"]
    assert count(second, Table) == 1
    assert other.get(f"{API}/tables/{first['id']}").get_json()["rematch"] is None
    unknown = {**document, "tables": [{**rematch, "follows": "Z" * 22}]}
    assert "Z" * 22 in assert_error(import_(other, unknown), 400, field="tables[0].follows")["message"]
    assert count(second, Table) == 1


@pytest.fixture
def played(app: Flask, client: FlaskClient) -> dict[str, Any]:
    """An export with every kind of hand and event (made once for all of hypothesis' examples)."""
    return export(client, ids_of(jubileu(app, client)))


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False),
    st.text(max_size=30),
    st.sampled_from(
        ["", "Ana", "void", "confirm", "2024-02-30T10:00:00", "9999-12-31T23:59:59-05:00", "A\x00", "x" * 300]
    ),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
)


@settings(SLOW, suppress_health_check=list(HealthCheck), derandomize=True, database=None)
@given(data=st.data())
def test_a_doctored_export_is_never_a_server_error(app: Flask, played: dict[str, Any], data: st.DataObject) -> None:
    """Any one value of a real export replaced (or removed): a 4xx with a sentence, or a table
    stored that the ledger agrees with."""
    document = copy.deepcopy(played)
    document["tables"][0]["id"] = data.draw(st.text("abcdefghijklmnopqrstuvwxyz0123456789", min_size=22, max_size=22))
    node: Any = document
    while True:  # walk down to a random place
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        key = data.draw(st.sampled_from(keys))
        child = node[key]
        if isinstance(child, (dict, list)) and child and data.draw(st.booleans()):
            node = child
            continue
        if isinstance(node, dict) and data.draw(st.integers(0, 5)) == 0:
            del node[key]
        else:
            node[key] = data.draw(JUNK)
        break
    fuzzer = app.test_client()
    response = fuzzer.post(f"{API}/import", json=document, headers=club_header(fuzzer))
    assert response.status_code in (201, 400, 409, 422), response.get_data(as_text=True)
    if response.status_code == 201:
        with app.app_context():
            for made in response.get_json():
                table = ledger.get_table(made["id"])
                assert ledger.rebuild_state(table) == table.state
            db.session.remove()
    else:
        assert_error(response, response.status_code)


def test_an_id_already_stored_is_a_409_and_nothing_is_stored(app: Flask, client: FlaskClient) -> None:
    ids = ids_of(jubileu(app, client), quatrilho(app, client))
    document = export(client, ids)
    document["tables"][1]["id"] = "A" * 22  # new; the other is taken
    tables, hands, events = count(app, Table), count(app, Hand), count(app, HandEvent)
    error = assert_error(import_(client, document), 409, code="conflict")
    assert ids[0] in error["message"]
    assert (count(app, Table), count(app, Hand), count(app, HandEvent)) == (tables, hands, events)
    assert client.get(f"{API}/tables/{'A' * 22}").status_code == 404


def test_an_illegal_hand_is_a_422_naming_it_and_nothing_is_stored(
    app: Flask, client: FlaskClient, fresh: Callable[[], Flask]
) -> None:
    ids = ids_of(quatrilho(app, client), jubileu(app, client))
    document = export(client, ids)
    record = document["tables"][1]["hands"][4]["record"]
    first = next(iter(record["tricks"]))
    record["tricks"][first] += 1  # thirteen tricks no longer
    second = fresh()
    error = assert_error(import_(second.test_client(), document, query_string={"language": "en"}), 422)
    assert error["field"].startswith("tables[1].hands[4]")
    assert count(second, Table) == 0 and count(second, Hand) == 0 and count(second, Member) == 0


def test_a_hand_after_the_end_of_a_match_is_a_422(app: Flask, client: FlaskClient, fresh: Callable[[], Flask]) -> None:
    ids = ids_of(samba(app, client))
    document = export(client, ids[:1])
    hands = document["tables"][0]["hands"]
    finished = next(i for i, h in enumerate(hands) if h["events"])  # the voided hand ended the match
    hands[finished]["events"] = []  # not voided: the hands after it come after the end
    second = fresh()
    error = assert_error(import_(second.test_client(), document), 422)
    assert error["field"] == f"tables[0].hands[{finished + 1}]"
    assert count(second, Table) == 0


def test_a_confirmation_by_the_phone_that_recorded_the_hand_is_a_422(
    app: Flask, client: FlaskClient, fresh: Callable[[], Flask]
) -> None:
    document = export(client, ids_of(jubileu(app, client)))
    hand = document["tables"][0]["hands"][5]
    assert hand["two_key"] and hand["events"][0]["kind"] == "confirm"
    hand["events"][0]["actor"] = hand["created_by"]  # the same scorer confirming his own hand
    second = fresh()
    error = assert_error(import_(second.test_client(), document), 422)
    assert error["field"] == "tables[0].hands[5].events"
    assert count(second, Table) == 0


def test_the_import_body_may_be_larger_than_other_requests(app: Flask, client: FlaskClient) -> None:
    padding = {"format": "referee-export", "version": 1, "tables": [], "note": "x" * 200_000}
    assert_error(client.post(f"{API}/tables", json={"game": "jubileu", "players": ["x" * 200_000]}), 413)
    response = import_(client, padding)
    assert response.status_code == 201 and response.get_json() == []
    assert_error(
        client.post(
            f"{API}/import",
            data=b"{" + b" " * (9 * 1024 * 1024) + b"}",
            content_type="application/json",
            headers=club_header(client),
        ),
        413,
    )


def test_an_import_too_large_for_the_network_points_to_the_command_line(client: FlaskClient) -> None:
    body = b'{"format": "referee-export", "version": 1, "tables": [], "note": "' + b"x" * (1024 * 1024) + b'"}'
    error = assert_error(
        client.post(f"{API}/import", data=body, content_type="application/json", headers=club_header(client)), 413
    )
    assert "1 MB" in error["message"] and "flask --app referee import" in error["message"]


# --------------------------------------------------------------------------- CSV


def rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def test_csv_one_row_per_player_per_hand(app: Flask, client: FlaskClient) -> None:
    ids = ids_of(quatrilho(app, client))
    response = client.get(f"{API}/tables/{ids[0]}/export.csv")
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    assert response.headers["Content-Disposition"] == f'attachment; filename="referee-{ids[0]}.csv"'
    text = response.get_data(as_text=True)
    assert text.endswith("\r\n") and "\r\n" in text.split("\n", 1)[0] + "\n"
    table = rows(text)
    assert table[0] == [
        "table_id",
        "table_name",
        "game",
        "date",
        "hand",
        "status",
        "dealer",
        "player",
        "member",
        "delta",
        "total",
    ]
    stored = client.get(f"{API}/tables/{ids[0]}").get_json()
    assert len(table) == 1 + 5 * len(stored["hands"])
    today = date.today()
    for row in table[1:]:
        assert row[0] == ids[0] and row[2] == "quatrilho"
        assert abs(date.fromisoformat(row[3]) - today) <= timedelta(days=1)  # the local date
        assert row[8] == row[7]  # each member is called as at the table
    by = {(int(r[4]), r[7]): r for r in table[1:]}
    assert by[(4, "Ana")][5] == "void" and by[(2, "Ana")][5] == "void" and by[(1, "Ana")][5] == "live"
    last = len(stored["hands"])
    assert {p: int(by[(last, p)][10]) for p in quatrilho_hands.PLAYERS} == stored["totals"]
    for number in range(2, last + 1):  # a void hand's delta is shown, not counted
        for p in quatrilho_hands.PLAYERS:
            row, before = by[(number, p)], by[(number - 1, p)]
            counted = int(row[9]) if row[5] == "live" else 0
            assert int(row[10]) == int(before[10]) + counted
    hand = stored["hands"][0]
    assert {p: int(by[(1, p)][9]) for p in quatrilho_hands.PLAYERS} == {
        p: hand["deltas"].get(p, 0) for p in quatrilho_hands.PLAYERS
    }
    assert by[(1, "Ana")][6] == hand["dealer"]


def test_csv_cells_a_spreadsheet_would_run_get_an_apostrophe(app: Flask, client: FlaskClient) -> None:
    players = ("=cmd|' /C calc'!A0", "+Bia", "-Caio", "@Dani")
    play = Play.new(client, "jubileu", players, name='=HYPERLINK("http://x","y")')
    play.hand()
    with app.app_context():
        member = db.session.scalars(select(Member).where(Member.name == "+Bia")).one()
        members.rename(member, 'Bia, "the" best')
    table = rows(client.get(f"{API}/tables/{play.id}/export.csv").get_data(as_text=True))
    assert table[1][1] == '\'=HYPERLINK("http://x","y")'
    assert [r[7] for r in table[1:]] == ["'=cmd|' /C calc'!A0", "'+Bia", "'-Caio", "'@Dani"]
    assert table[2][8] == 'Bia, "the" best'  # quoted by RFC 4180, read back whole
    deltas = [int(r[9]) for r in table[1:]]
    assert any(d < 0 for d in deltas) and sum(deltas) == 0  # numbers stay numbers, minus signs included


# --------------------------------------------------------------------------- seasons


def test_a_season_exports_its_tables(app: Flask, client: FlaskClient, fresh: Callable[[], Flask]) -> None:
    ids = ids_of(jubileu(app, client), samba(app, client))
    with app.app_context():
        today = date.today()
        season = league.save_season(
            None, name="Verão", starts_on=today - timedelta(days=1), ends_on=today + timedelta(days=1)
        )
        season_id = season.id
        empty = league.save_season(None, name="Antes", starts_on=date(2001, 1, 1), ends_on=date(2001, 12, 31)).id
    assert_error(client.get(f"{API}/seasons/{season_id}/export"), 401)  # every table's id: the club's business
    assert client.post("/club", data={"code": app.config["CLUB_CODE"]}).status_code == 302
    response = client.get(f"{API}/seasons/{season_id}/export")
    assert response.status_code == 200
    assert response.headers["Content-Disposition"] == f'attachment; filename="referee-season-{season_id}.json"'
    document = response.get_json()
    assert sorted(t["id"] for t in document["tables"]) == sorted(ids)
    assert client.get(f"{API}/seasons/{empty}/export").get_json()["tables"] == []
    csv_text = client.get(f"{API}/seasons/{season_id}/export.csv").get_data(as_text=True)
    assert {r[0] for r in rows(csv_text)[1:]} == set(ids)
    assert_error(client.get(f"{API}/seasons/999/export"), 404)
    assert_error(client.get(f"{API}/seasons/999/export.csv"), 404)
    assert_error(client.get(f"{API}/seasons/{2**40}/export"), 404)
    standings = league_figures(app, {"jubileu", "samba"})
    second = fresh()
    assert import_(second.test_client(), document).status_code == 201
    assert league_figures(second, {"jubileu", "samba"}) == standings


def test_unknown_tables_are_404(client: FlaskClient) -> None:
    assert_error(client.get(f"{API}/tables/nope/export"), 404)
    assert_error(client.get(f"{API}/tables/nope/export.csv"), 404)


# --------------------------------------------------------------------------- backup and restore


def club(app: Flask, client: FlaskClient) -> dict[str, Any]:
    """Tables of every game, scoring links (one revoked), a join code not yet used, a member
    with a Pix key, two members merged, a season."""
    plays = jubileu(app, client) + quatrilho(app, client) + samba(app, client)
    ids = ids_of(plays)
    open_ids = [ids[1], ids[3]]
    links = {tid: scoring_link(app, tid, "Edu") for tid in open_ids}
    revoked = scoring_link(app, ids[1], "Old")
    with app.app_context():
        table = ledger.get_table(ids[1])
        access.revoke(table, db.session.scalars(select(Access).where(Access.label == "Old")).one().id)
        _row, code = access.create_code(table, "Fê")
        ana = db.session.scalars(select(Member).where(Member.name == "Ana")).one()
        ana.pix_key, ana.pix_city = "ana@example.com", "Porto Alegre"
        db.session.commit()
        duplicate = members.resolve(["Aninha"])[0]
        db.session.commit()
        members.merge(duplicate, ana)
        league.save_season(None, name="Verão", starts_on=date(2020, 1, 1), ends_on=date(2030, 12, 31))
    owners = {play.id: play.token for play in plays}
    return {"ids": ids, "open": open_ids, "owners": owners, "links": links, "revoked": revoked, "code": code}


def snapshot(app: Flask) -> dict[str, Any]:
    with app.app_context():
        out = {
            "members": [
                (m.id, m.name, m.name_key, m.pix_key, m.pix_city, m.merged_into)
                for m in db.session.scalars(select(Member).order_by(Member.id))
            ],
            "seasons": [
                (s.id, s.name, s.starts_on, s.ends_on) for s in db.session.scalars(select(Season).order_by(Season.id))
            ],
            "access": [
                (a.id, a.table_id, a.role, a.label, a.token_hash, a.code_hash, a.revoked_at is not None)
                for a in db.session.scalars(select(Access).order_by(Access.id))
            ],
            "owners": sorted((t.id, t.scorer_token_hash) for t in db.session.scalars(select(Table))),
            "seats": sorted(
                (t.id, s.position, s.name, s.member_id) for t in db.session.scalars(select(Table)) for s in t.seats
            ),
        }
        db.session.remove()
        return out


def test_backup_and_restore_from_the_command_line_keep_every_token(
    app: Flask, client: FlaskClient, fresh: Callable[[], Flask], tmp_path: Path
) -> None:
    setup = club(app, client)
    ids = setup["ids"]
    before_answers = answers(client, ids)
    before = snapshot(app)
    standings = league_figures(app, set(GAMES))
    path = tmp_path / "club.json"
    result = app.test_cli_runner().invoke(args=["backup", str(path)])
    assert result.exit_code == 0, result.output
    assert "Backed up 4 tables" in result.output
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600  # token hashes and Pix keys inside
    assert json.loads(path.read_text())["format"] == "referee-backup"

    second = fresh()
    result = second.test_cli_runner().invoke(args=["restore", str(path)])
    assert result.exit_code == 0, result.output
    assert "Restored 4 tables, " in result.output
    assert snapshot(second) == before
    other = second.test_client()
    assert answers(other, ids) == before_answers
    assert league_figures(second, set(GAMES)) == standings

    # The owners' tokens and the scoring links still score, the revoked link does not, the join
    # code still joins.
    for table_id in setup["open"]:
        game = next(a["game"] for a in before_answers if a["id"] == table_id)
        number = Play(other, game, PLAYERS[game], table_id, setup["links"][table_id]).hand()["number"]
        Play(other, game, PLAYERS[game], table_id, setup["owners"][table_id]).step(number, "void", reason="test")
    for table_id, token in setup["owners"].items():  # closed or finished tables: refused, but not as a stranger
        assert other.post(f"{API}/tables/{table_id}/hands", json={}, headers=bearer(token)).status_code != 401
    refused = other.post(f"{API}/tables/{ids[1]}/hands", json={}, headers=bearer(setup["revoked"]))
    assert refused.status_code == 401
    with second.test_request_context():
        table, token = access.redeem_code(setup["code"], client="127.0.0.1")
        assert table.id == ids[1] and token
    # New rows get new ids after the restored ones (PostgreSQL's sequences were moved on).
    with second.app_context():
        newcomer = members.resolve(["Zeca"])[0]
        db.session.commit()
        assert newcomer.id > max(m[0] for m in before["members"])
        season = league.save_season(None, name="Inverno", starts_on=date(2031, 1, 1), ends_on=date(2031, 6, 30))
        assert season.id > max(s[0] for s in before["seasons"])
        link, _token = access.create_link(ledger.get_table(ids[1]), "Nova")
        assert link.id > max(a[0] for a in before["access"])


def test_restore_refuses_a_database_that_is_not_empty(app: Flask, client: FlaskClient, tmp_path: Path) -> None:
    ids = ids_of(jubileu(app, client))
    path = tmp_path / "club.json"
    runner = app.test_cli_runner()
    assert runner.invoke(args=["backup", str(path)]).exit_code == 0
    tables = count(app, Table)
    result = runner.invoke(args=["restore", str(path)])
    assert result.exit_code != 0 and "not empty" in result.output
    assert count(app, Table) == tables
    # --replace: everything goes, the backup comes back (a table made since is gone).
    hands = count(app, Hand)
    Play.new(client, "jubileu", jubileu_hands.PLAYERS).hand()
    assert count(app, Table) == tables + 1
    result = runner.invoke(args=["restore", "--replace", str(path)])
    assert result.exit_code == 0, result.output
    assert count(app, Hand) == hands and count(app, Table) == tables
    assert client.get(f"{API}/tables/{ids[0]}/export").status_code == 200


def test_a_file_that_is_not_a_backup_is_refused(app: Flask, tmp_path: Path) -> None:
    runner = app.test_cli_runner()
    path = tmp_path / "export.json"
    path.write_text(json.dumps({"format": "referee-export", "version": 1, "tables": []}))
    result = runner.invoke(args=["restore", str(path)])
    assert result.exit_code != 0 and "referee-backup" in result.output
    path.write_text("{")
    result = runner.invoke(args=["restore", str(path)])
    assert result.exit_code != 0 and "Cannot read" in result.output


def test_export_and_import_from_the_command_line(
    app: Flask, client: FlaskClient, fresh: Callable[[], Flask], tmp_path: Path
) -> None:
    ids = ids_of(jubileu(app, client), samba(app, client))
    with app.app_context():
        season_id = league.save_season(None, name="Tudo", starts_on=date(2020, 1, 1), ends_on=date(2030, 12, 31)).id
    runner = app.test_cli_runner()
    path, csv_path = tmp_path / "season.json", tmp_path / "season.csv"
    assert runner.invoke(args=["export", "--season", str(season_id), str(path)]).exit_code == 0
    assert runner.invoke(args=["export", "--csv", "--table", ids[0], str(csv_path)]).exit_code == 0
    assert rows(csv_path.read_text())[1][0] == ids[0]
    assert runner.invoke(args=["export", "--season", "999", str(path)]).exit_code != 0
    document = json.loads(path.read_text())
    assert sorted(t["id"] for t in document["tables"]) == sorted(ids)
    first = export(client, ids)
    second = fresh()
    result = second.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code == 0, result.output
    lines = result.output.split()
    assert sorted(lines[0::2]) == sorted(ids) and all(len(token) > 30 for token in lines[1::2])
    assert without_time(export(second.test_client(), ids)) == without_time(first)
    result = second.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code != 0 and "already exists" in result.output
