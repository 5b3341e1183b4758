"""POST /api/v1/tables/{id}/hands with Jubileu records."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.extensions import db
from referee.models import Hand, IdempotencyKey

from .api_support import (
    API,
    EXAMPLE_RECORD,
    PLAYERS,
    all_pass_record,
    assert_error,
    contract_record,
    create_table,
    get_table,
    order_after,
    post_hand,
    record_ok,
    solo_record,
    state,
)

ANSWER_KEYS = {"number", "dealer", "next_dealer", "deltas", "totals", "contract", "breakdown"}


def stored_hands(app: Flask) -> int:
    with app.app_context():
        return db.session.query(Hand).count()


@pytest.fixture
def table(client: FlaskClient) -> dict[str, Any]:
    """A fresh Jubileu table: Ana, Bia, Caio, Dani in order of play; Dani deals first."""
    return create_table(client)


# --------------------------------------------------------------------------- 201 answers


def test_api_md_example_record(client: FlaskClient, table: dict) -> None:
    """JO by Caio (3 aces), partner Bia: 4 + 5 = 9 tricks, one over the 8 needed.

    By hand: v = 3, overtricks o = 1, so each payer owes a = v + o = 4; partnership success:
    declarer +a, partner +a, each opponent -a.
    """
    response = post_hand(client, table, EXAMPLE_RECORD)
    assert response.status_code == 201
    answer = response.get_json()
    assert ANSWER_KEYS <= set(answer)
    assert answer["number"] == 1
    assert answer["dealer"] == "Dani"
    assert answer["next_dealer"] == "Ana"
    assert answer["deltas"] == {"Ana": -4, "Bia": 4, "Caio": 4, "Dani": -4}
    assert answer["totals"] == {"Ana": -4, "Bia": 4, "Caio": 4, "Dani": -4}
    assert answer["contract"]["bid"] == "jogo_obrigatorio"
    assert answer["contract"]["declarers"] == ["Caio"]
    assert answer["contract"].get("partner") == "Bia"
    assert answer["contract"].get("trump") == "espadas"
    assert [(line["amount"], line["total"]) for line in answer["breakdown"]] == [(3, False), (1, False), (4, True)]
    assert all(isinstance(line["label"], str) and line["label"] for line in answer["breakdown"])
    assert response.headers["Location"].endswith(f"{API}/tables/{table['id']}/hands/1")
    # What is stored answers the same.
    assert client.get(f"{API}/tables/{table['id']}/hands/1").get_json()["deltas"] == answer["deltas"]
    stored = get_table(client, table["id"])
    assert stored["totals"] == answer["totals"]
    assert stored["next_dealer"] == "Ana"
    assert stored["hands"][0]["record"]["auction"] == EXAMPLE_RECORD["auction"]


def test_solo_made_exactly(client: FlaskClient, table: dict) -> None:
    answer = record_ok(client, table, solo_record("Dani", 7))
    assert answer["contract"] == {"bid": "solo_sete", "declarers": ["Ana"], "trump": "espadas"}
    assert answer["deltas"] == {"Ana": 6, "Bia": -2, "Caio": -2, "Dani": -2}
    assert [line["amount"] for line in answer["breakdown"]] == [2]


def test_solo_with_overtricks_pays_one_more_chip_per_trick_from_each(client: FlaskClient, table: dict) -> None:
    # JUB-4: Solo Sete made with 9 pays 4 from each opponent (+12).
    answer = record_ok(client, table, solo_record("Dani", 9))
    assert answer["deltas"] == {"Ana": 12, "Bia": -4, "Caio": -4, "Dani": -4}
    assert [line["amount"] for line in answer["breakdown"]] == [2, 2, 4]


def test_overtricks_option_off(client: FlaskClient) -> None:
    table = create_table(client, options={"overtricks": False})
    assert record_ok(client, table, solo_record("Dani", 9))["deltas"] == {"Ana": 6, "Bia": -2, "Caio": -2, "Dani": -2}


@pytest.mark.parametrize(
    ("bid", "made", "deltas"),
    [
        # The rule text: Solo Nove with 7 pays each "as 4 fichas … e mais uma" (a = 5); with 8 only 4.
        ("solo_nove", 7, {"Ana": 5, "Bia": 5, "Caio": -15, "Dani": 5}),
        ("solo_nove", 8, {"Ana": 4, "Bia": 4, "Caio": -12, "Dani": 4}),
        ("solo_nove", 9, {"Ana": -4, "Bia": -4, "Caio": 12, "Dani": -4}),
        # JUB-5: Miséria failed with 2 tricks pays 6 to each (-18).
        ("miseria", 2, {"Ana": 6, "Bia": 6, "Caio": -18, "Dani": 6}),
        ("miseria", 0, {"Ana": -5, "Bia": -5, "Caio": 15, "Dani": -5}),
        ("miseria_aberta_com_coloquio", 0, {"Ana": -15, "Bia": -15, "Caio": 45, "Dani": -15}),
    ],
)
def test_direct_contract_entry(client: FlaskClient, table: dict, bid: str, made: int, deltas: dict) -> None:
    rest = 13 - made
    tricks = {"Ana": rest - rest // 2, "Bia": rest // 2, "Caio": made, "Dani": 0}
    record = contract_record(bid, "Caio", tricks, trump="paus")
    answer = record_ok(client, table, record)
    assert answer["deltas"] == deltas
    assert sum(answer["deltas"].values()) == 0
    assert answer["contract"]["bid"] == bid
    assert answer["contract"]["declarers"] == ["Caio"]
    assert answer["dealer"] == "Dani" and answer["next_dealer"] == "Ana"
    assert sum(line["amount"] for line in answer["breakdown"] if not line["total"]) == abs(deltas["Ana"])


def test_direct_contract_partnership(client: FlaskClient, table: dict) -> None:
    # Jubileu by Bia calling the ace of ouros (Dani holds it): 5 + 3 = 8 tricks, one over 7; a = 3.
    record = contract_record(
        "jubileu", "Bia", {"Ana": 3, "Bia": 5, "Caio": 2, "Dani": 3}, trump="copas", called="ouros", partner="Dani"
    )
    answer = record_ok(client, table, record)
    assert answer["deltas"] == {"Ana": -3, "Bia": 3, "Caio": -3, "Dani": 3}
    assert answer["contract"]["partner"] == "Dani"


def test_auction_and_contract_that_agree(client: FlaskClient, table: dict) -> None:
    record = solo_record("Dani", 7)
    record["contract"] = {"bid": "solo_sete", "declarers": ["Ana"]}
    assert record_ok(client, table, record)["deltas"]["Ana"] == 6


def test_meia_miseria_with_a_join(client: FlaskClient, table: dict) -> None:
    # Ana declares Meia Miséria, Caio joins in his turn; each is a solo against the other three.
    record = {
        "ultima": "copas",
        "auction": [["Ana", "meia_miseria"], ["Bia", "passo"], ["Caio", "meia_miseria"], ["Dani", "passo"]],
        "tricks": {"Ana": 1, "Bia": 6, "Caio": 1, "Dani": 5},
    }
    answer = record_ok(client, table, record)
    assert sorted(answer["contract"]["declarers"]) == ["Ana", "Caio"]
    # Both made (exactly one trick, v = 3): each +9 from the three others, so the two cancel out.
    assert answer["deltas"] == {"Ana": 6, "Bia": -6, "Caio": 6, "Dani": -6}


def test_all_pass_moves_nothing_and_the_deal_passes_on(client: FlaskClient, table: dict) -> None:
    answer = record_ok(client, table, all_pass_record("Dani"))
    assert answer["deltas"] == dict.fromkeys(PLAYERS, 0)
    assert answer["totals"] == dict.fromkeys(PLAYERS, 0)
    assert answer["contract"] == {"bid": "passo", "declarers": []}
    assert answer["dealer"] == "Dani" and answer["next_dealer"] == "Ana"
    stored = get_table(client, table["id"])
    assert len(stored["hands"]) == 1 and stored["next_dealer"] == "Ana"
    assert stored["totals"] == dict.fromkeys(PLAYERS, 0)


def test_all_pass_with_redeal_option_keeps_the_dealer(client: FlaskClient) -> None:
    table = create_table(client, options={"all_pass": "redeal"})
    answer = record_ok(client, table, all_pass_record("Dani"))
    assert answer["next_dealer"] == "Dani"
    assert get_table(client, table["id"])["next_dealer"] == "Dani"


def test_all_pass_as_a_direct_contract(client: FlaskClient, table: dict) -> None:
    answer = record_ok(client, table, {"ultima": "paus", "contract": {"bid": "passo"}})
    assert answer["deltas"] == dict.fromkeys(PLAYERS, 0)
    assert answer["next_dealer"] == "Ana"


def test_totals_accumulate(client: FlaskClient, table: dict) -> None:
    first = record_ok(client, table, solo_record("Dani", 7))  # Ana +6
    second = record_ok(client, table, solo_record("Ana", 6))  # Bia fails by one: -6
    assert second["number"] == 2
    assert second["deltas"] == {"Ana": 2, "Bia": -6, "Caio": 2, "Dani": 2}
    assert second["totals"] == {"Ana": 8, "Bia": -8, "Caio": 0, "Dani": 0}
    assert first["totals"] == {"Ana": 6, "Bia": -2, "Caio": -2, "Dani": -2}
    assert get_table(client, table["id"])["totals"] == second["totals"]


# --------------------------------------------------------------------------- dealer rotation


def test_dealer_rotation_follows_order_of_play(client: FlaskClient, table: dict) -> None:
    dealer = "Dani"
    for number, expected_next in enumerate(["Ana", "Bia", "Caio", "Dani", "Ana"], start=1):
        answer = record_ok(client, table, solo_record(dealer, 7))
        assert (answer["number"], answer["dealer"], answer["next_dealer"]) == (number, dealer, expected_next)
        assert answer["contract"]["declarers"] == [order_after(dealer)[0]]
        assert get_table(client, table["id"])["next_dealer"] == expected_next
        dealer = expected_next


def test_explicit_dealer_in_a_record(client: FlaskClient, table: dict) -> None:
    record_ok(client, table, solo_record("Dani", 7))  # rotation now says Ana deals
    answer = record_ok(client, table, solo_record("Caio", 7, explicit_dealer=True))
    assert answer["dealer"] == "Caio"
    assert answer["next_dealer"] == "Dani"
    assert answer["contract"]["declarers"] == ["Dani"]  # the player after Caio spoke first
    assert get_table(client, table["id"])["next_dealer"] == "Dani"
    assert record_ok(client, table, solo_record("Dani", 7))["dealer"] == "Dani"


def test_explicit_first_dealer_of_the_table(client: FlaskClient) -> None:
    table = create_table(client, dealer="Bia")
    answer = record_ok(client, table, solo_record("Bia", 7))
    assert answer["dealer"] == "Bia" and answer["next_dealer"] == "Caio"
    assert answer["contract"]["declarers"] == ["Caio"]


def test_auction_is_checked_against_the_rotation_dealer(client: FlaskClient, table: dict) -> None:
    # The rotation says Dani deals, so Ana speaks first: an auction opened by Bia is out of turn.
    before = state(client, table["id"])
    assert_error(post_hand(client, table, solo_record("Ana", 7)), 422, code="illegal_call", field="auction[0]")
    assert state(client, table["id"]) == before


# --------------------------------------------------------------------------- 401


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Authorization": "Bearer not-the-token"},
        {"Authorization": "Bearer "},
        {"Authorization": "Basic QW5hOkJpYQ=="},
    ],
    ids=["none", "wrong", "empty", "basic"],
)
def test_write_without_a_valid_token_is_401(app: Flask, client: FlaskClient, table: dict, headers: dict) -> None:
    response = client.post(f"{API}/tables/{table['id']}/hands", json=EXAMPLE_RECORD, headers=headers)
    assert_error(response, 401, code="unauthorized")
    assert stored_hands(app) == 0
    assert get_table(client, table["id"])["hands"] == []


def test_another_tables_token_is_401(app: Flask, client: FlaskClient, table: dict) -> None:
    other = create_table(client)
    assert_error(post_hand(client, table, EXAMPLE_RECORD, token=other["token"]), 401)
    assert stored_hands(app) == 0


def test_token_in_the_body_or_query_is_not_enough(app: Flask, client: FlaskClient, table: dict) -> None:
    response = client.post(f"{API}/tables/{table['id']}/hands?token={table['token']}", json={**EXAMPLE_RECORD})
    assert_error(response, 401)
    assert stored_hands(app) == 0


def test_hand_for_unknown_table_is_404(client: FlaskClient, table: dict) -> None:
    response = client.post(
        f"{API}/tables/no-such-table/hands", json=EXAMPLE_RECORD, headers={"Authorization": f"Bearer {table['token']}"}
    )
    assert_error(response, 404, code="not_found")


# --------------------------------------------------------------------------- refused writes store nothing


def _jubileu(**extra: Any) -> dict[str, Any]:
    """Jubileu by Ana (dealer Dani), partner Caio."""
    record: dict[str, Any] = {
        "ultima": "copas",
        "auction": [["Ana", "jubileu"], ["Bia", "passo"], ["Caio", "passo"], ["Dani", "passo"]],
        "trump": "espadas",
        "called": "paus",
        "partner": "Caio",
        "tricks": {"Ana": 4, "Bia": 3, "Caio": 4, "Dani": 2},
    }
    record.update(extra)
    return record


def _mm(**extra: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "ultima": "copas",
        "auction": [["Ana", "meia_miseria"], ["Bia", "passo"], ["Caio", "passo"], ["Dani", "passo"]],
        "tricks": {"Ana": 1, "Bia": 4, "Caio": 4, "Dani": 4},
    }
    record.update(extra)
    return record


REFUSED_422: list[tuple[str, dict[str, Any], str, str | None]] = [
    # (id, record, field, code)
    (
        "call-too-low",
        {
            **solo_record("Dani"),
            "auction": [["Ana", "solo_sete"], ["Bia", "jubileu"], ["Caio", "passo"], ["Dani", "passo"]],
        },
        "auction[1]",
        "illegal_call",
    ),
    (
        "same-bid-again",
        {
            **solo_record("Dani"),
            "auction": [["Ana", "solo_sete"], ["Bia", "solo_sete"], ["Caio", "passo"], ["Dani", "passo"]],
        },
        "auction[1]",
        "illegal_call",
    ),
    (
        "meia-miseria-over-solo-oito",
        {**_mm(), "auction": [["Ana", "solo_oito"], ["Bia", "meia_miseria"], ["Caio", "passo"], ["Dani", "passo"]]},
        "auction[1]",
        "illegal_call",
    ),
    (
        "miseria-over-solo-dez",
        {
            **solo_record("Dani"),
            "auction": [["Ana", "solo_dez"], ["Bia", "miseria"], ["Caio", "passo"], ["Dani", "passo"]],
        },
        "auction[1]",
        "illegal_call",
    ),
    (
        "out-of-turn",
        {
            **solo_record("Dani"),
            "auction": [["Bia", "solo_sete"], ["Ana", "passo"], ["Caio", "passo"], ["Dani", "passo"]],
        },
        "auction[0]",
        "illegal_call",
    ),
    (
        "passed-player-speaks-again",
        {
            **solo_record("Dani"),
            "auction": [
                ["Ana", "passo"],
                ["Bia", "solo_sete"],
                ["Caio", "passo"],
                ["Dani", "passo"],
                ["Ana", "solo_oito"],
            ],
        },
        "auction[4]",
        "illegal_call",
    ),
    (
        "incomplete-auction",
        {**solo_record("Dani"), "auction": [["Ana", "solo_sete"], ["Bia", "passo"]]},
        "auction",
        "illegal_call",
    ),
    (
        "empty-auction",
        {"ultima": "copas", "auction": []},
        "auction",
        "illegal_call",
    ),
    (
        "forced-holder-passes",
        {
            **solo_record("Dani"),
            "aces": {"Ana": 3},
            "auction": [["Ana", "passo"], ["Bia", "passo"], ["Caio", "passo"], ["Dani", "passo"]],
        },
        "auction[0]",
        "illegal_call",
    ),
    (
        "jogo-obrigatorio-without-aces",
        {
            **solo_record("Dani"),
            "auction": [["Ana", "jogo_obrigatorio"], ["Bia", "passo"], ["Caio", "passo"], ["Dani", "passo"]],
        },
        "auction[0]",
        "illegal_call",
    ),
    (
        "tricks-add-to-12",
        {**solo_record("Dani"), "tricks": {"Ana": 7, "Bia": 2, "Caio": 2, "Dani": 1}},
        "tricks",
        "inconsistent_hand",
    ),
    (
        "tricks-add-to-14",
        {**solo_record("Dani"), "tricks": {"Ana": 8, "Bia": 2, "Caio": 2, "Dani": 2}},
        "tricks",
        "inconsistent_hand",
    ),
    (
        "tricks-above-13",
        {**solo_record("Dani"), "tricks": {"Ana": 14, "Bia": 0, "Caio": 0, "Dani": 0}},
        "tricks.Ana",
        None,
    ),
    ("tricks-negative", {**solo_record("Dani"), "tricks": {"Ana": 14, "Bia": -1, "Caio": 0, "Dani": 0}}, None, None),
    ("called-ace-is-trump", _jubileu(called="espadas"), "called", "inconsistent_hand"),
    (
        "called-ace-is-ultima-in-da-ultima",
        _jubileu(
            auction=[["Ana", "jubileu_da_ultima"], ["Bia", "passo"], ["Caio", "passo"], ["Dani", "passo"]],
            trump=None,
            called="copas",
        ),
        "called",
        "inconsistent_hand",
    ),
    ("partner-is-declarer", _jubileu(partner="Ana"), "partner", "inconsistent_hand"),
    ("meia-miseria-with-trump", _mm(trump="paus"), "trump", "inconsistent_hand"),
    (
        "da-ultima-trump-not-ultima",
        {
            **solo_record("Dani"),
            "auction": [["Ana", "solo_sete_da_ultima"], ["Bia", "passo"], ["Caio", "passo"], ["Dani", "passo"]],
        },
        "trump",
        "inconsistent_hand",
    ),
    ("solo-with-partner", {**solo_record("Dani"), "partner": "Bia"}, "partner", "inconsistent_hand"),
    ("solo-with-called-ace", {**solo_record("Dani"), "called": "paus"}, "called", "inconsistent_hand"),
    (
        "jogo-obrigatorio-trump-is-fourth-ace",
        {**EXAMPLE_RECORD, "trump": "paus"},
        "trump",
        "inconsistent_hand",
    ),
    (
        "all-pass-with-tricks",
        {**all_pass_record("Dani"), "tricks": {"Ana": 4, "Bia": 3, "Caio": 3, "Dani": 3}},
        "tricks",
        None,
    ),
    ("all-pass-with-trump", {**all_pass_record("Dani"), "trump": "copas"}, "trump", None),
    (
        "contract-disagrees-with-auction",
        {**solo_record("Dani"), "contract": {"bid": "solo_oito", "declarers": ["Ana"]}},
        "contract",
        "inconsistent_hand",
    ),
    (
        "direct-contract-ignores-forced-bid",
        contract_record("solo_sete", "Ana", {"Ana": 7, "Bia": 2, "Caio": 2, "Dani": 2}, trump="paus", aces={"Bia": 3}),
        "contract",
        None,
    ),
    (
        "direct-contract-several-declarers",
        {
            **contract_record("solo_sete", "Ana", {"Ana": 7, "Bia": 2, "Caio": 2, "Dani": 2}, trump="paus"),
            "contract": {"bid": "solo_sete", "declarers": ["Ana", "Bia"]},
        },
        "contract.declarers",
        None,
    ),
    ("two-ace-holders", {**EXAMPLE_RECORD, "aces": {"Caio": 3, "Ana": 3}}, "aces", None),
    ("two-aces-entered", {**EXAMPLE_RECORD, "aces": {"Caio": 2}}, "aces.Caio", None),
    # A name not seated at the table is a 422 with the field that names it.
    ("unseated-dealer", {**solo_record("Dani"), "dealer": "Zé"}, "dealer", "unknown_player"),
    ("unseated-in-auction", {**solo_record("Dani"), "auction": [["Zé", "solo_sete"]]}, "auction[0]", "unknown_player"),
    ("unseated-partner", _jubileu(partner="Zé"), "partner", "unknown_player"),
    (
        "unseated-in-tricks",
        {**solo_record("Dani"), "tricks": {"Ana": 7, "Bia": 2, "Caio": 2, "Zé": 2}},
        "tricks.Zé",
        "unknown_player",
    ),
    ("unseated-ace-holder", {**EXAMPLE_RECORD, "aces": {"Zé": 3}}, "aces.Zé", "unknown_player"),
    (
        "unseated-declarer",
        contract_record("solo_sete", "Zé", {"Ana": 7, "Bia": 2, "Caio": 2, "Dani": 2}, trump="paus"),
        "contract.declarers[0]",
        "unknown_player",
    ),
    ("dealer-wrong-case", {**solo_record("Dani"), "dealer": "dani"}, "dealer", "unknown_player"),
]


@pytest.mark.parametrize(
    ("record", "field", "code"), [case[1:] for case in REFUSED_422], ids=[case[0] for case in REFUSED_422]
)
def test_rule_breaks_are_422_and_store_nothing(
    app: Flask, client: FlaskClient, table: dict, record: dict, field: str | None, code: str | None
) -> None:
    record_ok(client, table, all_pass_record("Dani"))
    record_ok(client, table, solo_record("Ana", 7))  # Bia +6: totals are not all zero
    before = state(client, table["id"])
    # The cases are written for a hand dealt by Dani: name him (the rotation says Caio).
    sent = {k: v for k, v in copy.deepcopy(record).items() if v is not None}
    sent.setdefault("dealer", "Dani")
    response = post_hand(client, table, sent)
    assert_error(response, 422, code=code, field=field)
    assert state(client, table["id"]) == before
    assert stored_hands(app) == 2


REFUSED_400: list[tuple[str, dict[str, Any] | str | list, str | None]] = [
    ("auction-not-a-list", {**solo_record("Dani"), "auction": "Ana solo_sete, Bia passo"}, "auction"),
    ("auction-object", {**solo_record("Dani"), "auction": {"Ana": "solo_sete"}}, "auction"),
    ("call-not-a-pair", {**solo_record("Dani"), "auction": [["Ana", "solo_sete", "x"]]}, "auction[0]"),
    ("call-a-string", {**solo_record("Dani"), "auction": ["Ana solo_sete"]}, "auction[0]"),
    ("unknown-call", {**solo_record("Dani"), "auction": [["Ana", "solo_sete_e_meio"], ["Bia", "passo"]]}, "auction[0]"),
    ("call-not-text", {**solo_record("Dani"), "auction": [["Ana", 7]]}, "auction[0]"),
    ("player-not-text", {**solo_record("Dani"), "auction": [[1, "passo"]]}, "auction[0]"),
    ("tricks-strings", {**solo_record("Dani"), "tricks": {"Ana": "7", "Bia": 2, "Caio": 2, "Dani": 2}}, "tricks.Ana"),
    ("tricks-floats", {**solo_record("Dani"), "tricks": {"Ana": 7.0, "Bia": 2, "Caio": 2, "Dani": 2}}, "tricks.Ana"),
    ("tricks-bools", {**solo_record("Dani"), "tricks": {"Ana": 7, "Bia": True, "Caio": 3, "Dani": 2}}, "tricks.Bia"),
    ("tricks-list", {**solo_record("Dani"), "tricks": [7, 2, 2, 2]}, "tricks"),
    ("tricks-missing", {k: v for k, v in solo_record("Dani").items() if k != "tricks"}, "tricks"),
    ("tricks-one-missing", {**solo_record("Dani"), "tricks": {"Ana": 7, "Bia": 3, "Caio": 3}}, "tricks.Dani"),
    ("ultima-missing", {k: v for k, v in solo_record("Dani").items() if k != "ultima"}, "ultima"),
    ("ultima-not-a-suit", {**solo_record("Dani"), "ultima": "hearts"}, "ultima"),
    ("trump-not-a-suit", {**solo_record("Dani"), "trump": 3}, "trump"),
    ("trump-missing", {k: v for k, v in solo_record("Dani").items() if k != "trump"}, "trump"),
    ("partner-missing", {k: v for k, v in _jubileu().items() if k != "partner"}, "partner"),
    ("called-missing", {k: v for k, v in _jubileu().items() if k != "called"}, "called"),
    ("no-auction-no-contract", {"ultima": "copas", "tricks": {"Ana": 7, "Bia": 2, "Caio": 2, "Dani": 2}}, "auction"),
    ("contract-not-object", {"ultima": "copas", "contract": "solo_sete"}, "contract"),
    ("contract-unknown-bid", {"ultima": "copas", "contract": {"bid": "truco", "declarers": ["Ana"]}}, "contract.bid"),
    ("contract-no-declarer", {"ultima": "copas", "contract": {"bid": "solo_sete"}}, "contract.declarers"),
    ("aces-not-object", {**EXAMPLE_RECORD, "aces": ["Caio"]}, "aces"),
    ("aces-not-int", {**EXAMPLE_RECORD, "aces": {"Caio": "3"}}, "aces.Caio"),
    ("unknown-field", {**solo_record("Dani"), "comment": "nice"}, "comment"),
    ("expected-number-text", {**solo_record("Dani"), "expected_number": "3"}, "expected_number"),
    ("expected-number-bool", {**solo_record("Dani"), "expected_number": True}, "expected_number"),
    ("reason-not-text", {**solo_record("Dani"), "reason": 5}, "reason"),
    ("body-list", [solo_record("Dani")], None),
    ("body-string", "hand", None),
]


@pytest.mark.parametrize(("record", "field"), [case[1:] for case in REFUSED_400], ids=[case[0] for case in REFUSED_400])
def test_malformed_records_are_400_and_store_nothing(
    app: Flask, client: FlaskClient, table: dict, record: Any, field: str | None
) -> None:
    record_ok(client, table, solo_record("Dani", 8))
    before = state(client, table["id"])
    if isinstance(record, dict):
        record = {"dealer": "Dani", **record}  # the cases are written for a hand dealt by Dani
    response = post_hand(client, table, record)
    assert_error(response, 400, code=None, field=field)
    assert state(client, table["id"]) == before
    assert stored_hands(app) == 1


@pytest.mark.parametrize(
    ("data", "content_type"),
    [("{broken", "application/json"), ("ultima=copas", "application/x-www-form-urlencoded"), ("", "application/json")],
    ids=["broken-json", "form", "empty"],
)
def test_non_json_hand_is_400(app: Flask, client: FlaskClient, table: dict, data: str, content_type: str) -> None:
    response = client.post(
        f"{API}/tables/{table['id']}/hands",
        data=data,
        content_type=content_type,
        headers={"Authorization": f"Bearer {table['token']}"},
    )
    assert_error(response, 400)
    assert stored_hands(app) == 0


# --------------------------------------------------------------------------- expected_number


def test_expected_number_right_is_stored(client: FlaskClient, table: dict) -> None:
    assert record_ok(client, table, {**solo_record("Dani"), "expected_number": 1})["number"] == 1
    assert record_ok(client, table, {**solo_record("Ana"), "expected_number": 2})["number"] == 2


@pytest.mark.parametrize("expected", [1, 3, 7])
def test_expected_number_wrong_is_409(app: Flask, client: FlaskClient, table: dict, expected: int) -> None:
    record_ok(client, table, solo_record("Dani"))
    before = state(client, table["id"])
    response = post_hand(client, table, {**solo_record("Ana"), "expected_number": expected})
    error = assert_error(response, 409, code="conflict")
    assert "2" in error["message"]
    assert error.get("current_number") == 1
    assert state(client, table["id"]) == before
    assert stored_hands(app) == 1


@pytest.mark.parametrize("expected", [0, -1])
def test_expected_number_below_one_is_400(app: Flask, client: FlaskClient, table: dict, expected: int) -> None:
    record_ok(client, table, solo_record("Dani"))
    before = state(client, table["id"])
    assert_error(
        post_hand(client, table, {**solo_record("Ana"), "expected_number": expected}), 400, field="expected_number"
    )
    assert state(client, table["id"]) == before
    assert stored_hands(app) == 1


def test_expected_number_is_not_stored_in_the_record(client: FlaskClient, table: dict) -> None:
    record_ok(client, table, {**solo_record("Dani"), "expected_number": 1})
    assert "expected_number" not in get_table(client, table["id"])["hands"][0]["record"]


# --------------------------------------------------------------------------- Idempotency-Key


def test_same_idempotency_key_twice_stores_one_hand(app: Flask, client: FlaskClient, table: dict) -> None:
    headers = {"Idempotency-Key": "phone-1/hand-1"}
    first = post_hand(client, table, EXAMPLE_RECORD, headers=headers)
    second = post_hand(client, table, EXAMPLE_RECORD, headers=headers)
    assert first.status_code == second.status_code == 201
    assert "Idempotent-Replayed" not in first.headers
    assert second.headers.get("Idempotent-Replayed") == "true"
    assert second.get_json() == first.get_json()
    assert stored_hands(app) == 1
    with app.app_context():
        assert db.session.query(IdempotencyKey).count() == 1
    stored = get_table(client, table["id"])
    assert len(stored["hands"]) == 1
    assert stored["totals"] == first.get_json()["totals"]


def test_idempotent_retry_with_a_stale_expected_number_is_still_replayed(
    app: Flask, client: FlaskClient, table: dict
) -> None:
    body = {**EXAMPLE_RECORD, "expected_number": 1}
    first = post_hand(client, table, body, headers={"Idempotency-Key": "k1"})
    second = post_hand(client, table, body, headers={"Idempotency-Key": "k1"})
    assert second.status_code == 201 and second.get_json()["number"] == 1
    assert second.get_json() == first.get_json()
    assert stored_hands(app) == 1


def test_different_idempotency_keys_store_two_hands(app: Flask, client: FlaskClient, table: dict) -> None:
    a = post_hand(client, table, solo_record("Dani"), headers={"Idempotency-Key": "a"})
    b = post_hand(client, table, solo_record("Ana"), headers={"Idempotency-Key": "b"})
    assert (a.get_json()["number"], b.get_json()["number"]) == (1, 2)
    assert "Idempotent-Replayed" not in b.headers
    assert stored_hands(app) == 2


def test_idempotency_keys_belong_to_their_table(app: Flask, client: FlaskClient, table: dict) -> None:
    other = create_table(client)
    post_hand(client, table, solo_record("Dani"), headers={"Idempotency-Key": "same"})
    response = post_hand(client, other, solo_record("Dani", 9), headers={"Idempotency-Key": "same"})
    assert response.status_code == 201
    assert "Idempotent-Replayed" not in response.headers
    assert response.get_json()["deltas"]["Ana"] == 12
    assert stored_hands(app) == 2


def test_refused_write_does_not_burn_the_idempotency_key(app: Flask, client: FlaskClient, table: dict) -> None:
    bad = {**solo_record("Dani"), "tricks": {"Ana": 7, "Bia": 2, "Caio": 2, "Dani": 1}}
    assert post_hand(client, table, bad, headers={"Idempotency-Key": "k"}).status_code == 422
    good = post_hand(client, table, solo_record("Dani"), headers={"Idempotency-Key": "k"})
    assert good.status_code == 201 and "Idempotent-Replayed" not in good.headers
    assert stored_hands(app) == 1


def test_overlong_idempotency_key_is_400(app: Flask, client: FlaskClient, table: dict) -> None:
    assert_error(
        post_hand(client, table, solo_record("Dani"), headers={"Idempotency-Key": "k" * 101}),
        400,
        field="Idempotency-Key",
    )
    assert stored_hands(app) == 0


def test_replay_needs_the_token_too(app: Flask, client: FlaskClient, table: dict) -> None:
    post_hand(client, table, solo_record("Dani"), headers={"Idempotency-Key": "k"})
    response = post_hand(client, table, solo_record("Dani"), token=None, headers={"Idempotency-Key": "k"})
    assert_error(response, 401)


# --------------------------------------------------------------------------- reading one hand


def test_get_one_hand(client: FlaskClient, table: dict) -> None:
    answer = record_ok(client, table, EXAMPLE_RECORD)
    response = client.get(f"{API}/tables/{table['id']}/hands/1")
    assert response.status_code == 200
    hand = response.get_json()
    for key in ANSWER_KEYS:
        assert hand[key] == answer[key], key
    assert hand["record"]["dealer"] == "Dani"
    assert_error(client.get(f"{API}/tables/{table['id']}/hands/2"), 404, code="not_found")


# --------------------------------------------------------------------------- preview


def test_preview_judges_without_storing(app: Flask, client: FlaskClient, table: dict) -> None:
    response = client.post(f"{API}/tables/{table['id']}/hands/preview", json=EXAMPLE_RECORD)
    assert response.status_code == 200
    assert response.get_json()["deltas"] == {"Ana": -4, "Bia": 4, "Caio": 4, "Dani": -4}
    bad = client.post(f"{API}/tables/{table['id']}/hands/preview", json={**EXAMPLE_RECORD, "trump": "paus"})
    assert_error(bad, 422, field="trump")
    assert stored_hands(app) == 0


def test_an_idempotency_key_reused_for_another_hand_is_refused(app: Flask, client: FlaskClient, table: dict) -> None:
    key = {"Idempotency-Key": "phone-1-hand-1"}
    record_ok(client, table, solo_record("Dani"), headers=key)
    before = state(client, table["id"])
    response = post_hand(client, table, solo_record("Ana"), headers=key)
    assert_error(response, 422, field="Idempotency-Key")
    assert state(client, table["id"]) == before
    assert stored_hands(app) == 1


def test_a_hand_number_taken_meanwhile_is_a_409_not_a_500(
    app: Flask, client: FlaskClient, table: dict, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two phones read "next is hand 2" at once; the slower one's insert hits the unique
    (table, number) constraint. It must get a 409 with a sentence, and nothing half-stored."""
    from referee import ledger

    record_ok(client, table, solo_record("Dani"))
    record_ok(client, table, solo_record("Ana"))
    before = state(client, table["id"])
    monkeypatch.setattr(ledger.hands, "next_number", lambda t: 2)  # the stale read
    response = post_hand(client, table, solo_record("Bia"))
    error = assert_error(response, 409, code="conflict")
    assert "2" in error["message"]
    monkeypatch.undo()
    assert state(client, table["id"]) == before
    assert stored_hands(app) == 2


def test_a_table_changed_meanwhile_is_a_409(
    app: Flask, client: FlaskClient, table: dict, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another writer moved the table's state between our read and our write (version check)."""
    from sqlalchemy import update

    from referee import ledger
    from referee.extensions import db
    from referee.models import Table

    real_preview = ledger.hands.preview_hand

    def preview_then_someone_else_writes(*args: Any, **kwargs: Any) -> Any:
        result = real_preview(*args, **kwargs)
        db.session.execute(
            update(Table).where(Table.id == table["id"]).values(version=Table.version + 1),
            execution_options={"synchronize_session": False},  # as another process would
        )
        return result

    before = state(client, table["id"])
    monkeypatch.setattr(ledger.hands, "preview_hand", preview_then_someone_else_writes)
    assert_error(post_hand(client, table, solo_record("Dani")), 409, code="conflict")
    monkeypatch.undo()
    assert state(client, table["id"]) == before
    assert stored_hands(app) == 0
