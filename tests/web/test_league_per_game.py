"""The newer games in the league, the settle-up and the club night: a few hands of each,
played through the API, then the standings (kept on the seats and recomputed from the hands),
the chips a pot game leaves on the table, the settle-up page and its payments, the club night,
and the patience games ranked by games won, with each player's win rate per patience."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from html import unescape
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee import league, ledger, settleup
from referee.extensions import db
from referee.models import Member, Table
from tests.web.api_support import API, create_table, get_table, record_ok, void
from tests.web.league_audit import standings_from_hands

P4 = ["Ana", "Bia", "Caio", "Dani"]
#: Another table of the same evening: two of the same people, two others.
OTHERS = ["Edu", "Ana", "Caio", "Fábio"]

SUITS = {"♥": "copas", "♦": "ouros", "♠": "espadas", "♣": "paus"}


def cards(text: str) -> list[dict[str, str]]:
    """ "K♥ 3♠" -> [{"rank": "K", "suit": "copas"}, {"rank": "3", "suit": "espadas"}]."""
    return [{"rank": c[:-1], "suit": SUITS[c[-1]]} for c in text.split()]


def examples(game: str, p: Sequence[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A table's options and a few legal records for the players ``p`` (order of play), each
    naming its dealer. Written for any four names (two for Koziri, one for a patience)."""
    a, b, c, d = (list(p) + ["", "", ""])[:4]
    if game == "koziri":
        return {"stake": 3, "chip_value": "0.50"}, [
            {"dealer": b, "dealer_trump": "espadas", "dealer_second": "copas", "opponent_trump": "ouros", "winner": a},
            {
                "dealer": a,
                "dealer_trump": "paus",
                "dealer_second": "ouros",
                "opponent_trump": "copas",
                "opponent_second": "espadas",
                "winner": a,
            },
            {"dealer": b, "dealer_trump": "copas", "dealer_second": "paus", "opponent_trump": "espadas", "winner": b},
        ]
    if game == "injun":
        return {"ante": 1}, [
            # Poker: 20, 23, 27, then an equal 27 closes; the two aces share 101 chips,
            # the odd chip stays on the table.
            {
                "dealer": d,
                "actions": [[a, {"bet": 20}], [b, {"bet": 23}], [c, {"bet": 27}], [d, {"bet": 27}]],
                "cards": {a: "K", b: "A", c: "A", d: "2"},
            },
            # Brag with a closed pot: c closes with his card, then b pays to see.
            {
                "dealer": a,
                "system": "brag",
                "actions": [[b, "bet"], [c, "bet"], [d, "close"], [a, "drop"], [b, "bet"], [c, "see"]],
                "cards": {b: "2", c: "3", d: "4"},
            },
            # Three aces share 8 chips: 2 stay on the table.
            {"dealer": b, "actions": [[c, {"bet": 2}], [d, {"bet": 2}]], "cards": {a: "A", b: "K", c: "A", d: "A"}},
        ]
    if game == "kentucky_derby":
        return {"pingo": 1, "chip_value": "0.25"}, [
            # Copas alone crosses in the fourth round; its backers a and d share the pot.
            {
                "dealer": d,
                "pingo": 1,
                "bets": {a: {"horse": "copas", "amount": 2}, b: "ouros", c: "paus", d: "copas"},
                "cards": cards("K♥ 3♠ 3♦ 3♥ Q♥ 4♠ 4♦ 4♥ J♥ 5♠ 5♦ 5♥ 10♥ 6♠ 6♦ 6♥"),
            },
            # Told by its result only; nobody backed espadas: the pot stays.
            {"dealer": a, "bets": {a: "copas", b: "ouros", c: "paus", d: "copas"}, "winner": "espadas"},
        ]
    if game == "lift_smoke":
        return {"ante": 2}, [
            {"dealer": d, "winner": b, "out_order": [c, [a, d]]},
            {"dealer": b, "winner": a, "out_order": [[c, d], [b, a]]},  # a won the last trick
            {"dealer": a, "winner": d},
        ]
    if game == "el_gato":
        return {"stake": 2}, [
            {"dealer": d, "loser": b, "out_order": [a, [c, d]]},
            {"dealer": a, "loser": c},
        ]
    if game == "relogio":
        return {}, [
            {"game": "relogio", "won": True},
            {"game": "relogio", "won": False, "king_exchanges": 1},
            {"game": "relogio_real", "sequences": 3},
            {"game": "relogio_real", "sequences": 1, "won": False},
        ]
    if game == "cachorro":
        return {}, [{"won": True, "round": 2}, {"won": False}, {"game": "cachorro", "won": True, "round": 1}]
    raise AssertionError(game)


PAYING = ("koziri", "injun", "kentucky_derby", "lift_smoke", "el_gato")
SEATS = {"koziri": 2, "injun": 4, "kentucky_derby": 4, "lift_smoke": 4, "el_gato": 4, "relogio": 1, "cachorro": 1}


@pytest.fixture(autouse=True)
def english(client: FlaskClient) -> None:
    """The pages in English (the msgids), so that the words checked below are the real ones."""
    client.set_cookie("lang", "en")


def play(client: FlaskClient, game: str, players: Sequence[str]) -> dict[str, Any]:
    """A table of ``game`` with its example hands recorded through the API."""
    options, records = examples(game, players)
    table = create_table(client, game=game, players=list(players), options=options)
    for record in records:
        record_ok(client, table, record)
    return table


def _page(client: FlaskClient, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, response.get_data(as_text=True)[:800]
    return response.get_data(as_text=True)


def _cleared(balances: Mapping[str, int], payments: Sequence[settleup.Payment]) -> dict[str, int]:
    after = dict(balances)
    for p in payments:
        after[p.payer] += p.amount
        after[p.payee] -= p.amount
    return after


def _tables(app: Flask, *ids: str) -> list[Table]:
    return [db.session.get(Table, table_id) for table_id in ids]


# --------------------------------------------------------------------------- the paying games


@pytest.mark.parametrize("game", PAYING)
def test_standings_list_the_players_and_nets_sum_to_minus_the_chips_left(
    app: Flask, client: FlaskClient, game: str
) -> None:
    seats = SEATS[game]
    one = play(client, game, P4[:seats])
    two = play(client, game, OTHERS[:seats])
    left = get_table(client, one["id"]).get("on_the_table", 0) + get_table(client, two["id"]).get("on_the_table", 0)
    with app.app_context():
        kept, recomputed = league.standings(game), standings_from_hands(game)
        assert kept == recomputed
        assert {row.name for row in kept} == set(P4[:seats]) | set(OTHERS[:seats])
        assert league.on_the_tables(game) == left
        assert sum(row.net for row in kept) == -left  # pot.py: the deltas sum to minus the carry
        ana = next(row for row in kept if row.name == "Ana")
        assert ana.tables == 2 and ana.hands == len(examples(game, P4)[1]) + len(examples(game, OTHERS)[1])
    if game in ("injun", "kentucky_derby"):
        assert left > 0  # the examples leave chips on the table
    page = _page(client, f"/league/{game}?season=all")
    for name in set(P4[:seats]) | set(OTHERS[:seats]):
        assert name in page
    assert ("pot-note" in page) == (left > 0)
    assert "Win rate" not in page


@pytest.mark.parametrize("game", PAYING)
def test_the_settle_up_page_renders_and_its_payments_clear_the_balances(
    app: Flask, client: FlaskClient, game: str
) -> None:
    table = play(client, game, P4[: SEATS[game]])
    page = _page(client, f"/t/{table['id']}/settle")
    with app.test_request_context():
        (row,) = _tables(app, table["id"])
        result = settleup.settle_up([row])
        settled = ledger.to_settle(row)
        assert result.balances == settled
        assert sum(settled.values()) == 0
        assert all(amount == 0 for amount in _cleared(result.balances, result.payments).values())
        assert result.left_on_tables == ledger.on_the_table(row)
        names = [p.payer for p in result.payments] + [p.payee for p in result.payments]
    assert all(name in page for name in names)
    api = client.get(f"{API}/tables/{table['id']}/settlement").get_json()
    assert [(t["from"], t["to"], t["amount"]) for t in api["transfers"]] == [
        (p.payer, p.payee, p.amount) for p in result.payments
    ]


@pytest.mark.parametrize("game", PAYING)
def test_the_club_night_takes_the_new_games(app: Flask, client: FlaskClient, game: str) -> None:
    """Two tables of the game, one of Jubileu, all with a money value: settled together by
    member, in cents; the patience table of the evening is left out."""
    seats = SEATS[game]
    options, _ = examples(game, P4)
    value = {"chip_value": "0.50"} if "chip_value" not in options else {}
    one = create_table(client, game=game, players=P4[:seats], options={**options, **value})
    for record in examples(game, P4[:seats])[1]:
        record_ok(client, one, record)
    two = play(client, game, OTHERS[:seats])
    jubileu = create_table(client, players=["Ana", "Gil", "Hugo", "Ivo"], options={"chip_value": "1"})
    record_ok(
        client,
        jubileu,
        {
            "ultima": "copas",
            "auction": [["Ana", "solo_sete"], ["Gil", "passo"], ["Hugo", "passo"], ["Ivo", "passo"]],
            "trump": "espadas",
            "tricks": {"Ana": 8, "Gil": 2, "Hugo": 2, "Ivo": 1},
        },
    )
    patience = play(client, "relogio", ["Ana"])
    assert client.post("/club", data={"code": app.config["CLUB_CODE"]}).status_code == 302  # the whole evening
    index = _page(client, "/night")
    assert one["id"] in index and two["id"] in index
    ids = [one["id"], two["id"], jubileu["id"], patience["id"]]
    if "chip_value" not in examples(game, OTHERS)[0]:
        # The second table has no money value: the night refuses, with a sentence, and stores nothing.
        refused = _page(client, "/night/settle?" + "&".join(f"t={i}" for i in ids), status=422)
        assert "money value" in refused
        ids.remove(two["id"])
    page = _page(client, "/night/settle?" + "&".join(f"t={i}" for i in ids))
    with app.test_request_context():
        result = settleup.settle_up(_tables(app, *ids))
        assert result.in_money and patience["id"] not in {t.id for t in result.tables}
        assert sum(result.balances.values()) == 0
        assert all(amount == 0 for amount in _cleared(result.balances, result.payments).values())
        ana = db.session.query(Member).filter_by(name="Ana").one()
        assert "Ana" in result.balances and ana.name == "Ana"
    assert "Ana" in page
    assert ("pot-note" in page) == bool(result.left_on_tables)


def test_a_night_of_patience_tables_only_has_nothing_to_settle(client: FlaskClient) -> None:
    one, two = play(client, "relogio", ["Ana"]), play(client, "cachorro", ["Bia"])
    page = _page(client, f"/night/settle?t={one['id']}&t={two['id']}", status=422)
    assert "nothing to settle" in page or "nada a acertar" in page


def test_voiding_the_race_that_left_the_pot_takes_it_off_the_league(app: Flask, client: FlaskClient) -> None:
    table = play(client, "kentucky_derby", P4)
    with app.app_context():
        # The first race's 9 chips shared by two backers leave 1; nobody backed the second
        # race's winner, so its 8 chips (4 pingos, 4 bets) stay too, on top of that one.
        assert league.on_the_tables("kentucky_derby") == 1 + 8
    assert void(client, table, 2).status_code == 200
    with app.app_context():
        assert league.on_the_tables("kentucky_derby") == 1
        assert sum(row.net for row in league.standings("kentucky_derby")) == -1


# --------------------------------------------------------------------------- the patience games


def test_patience_standings_rank_by_games_won_then_win_rate(app: Flask, client: FlaskClient) -> None:
    play(client, "relogio", ["Ana"])  # 2 won of 4 (one Relógio, one Relógio Real)
    bia = create_table(client, game="relogio", players=["Bia"])
    for record in ({"won": True}, {"game": "relogio_real", "sequences": 4}):  # 2 of 2
        record_ok(client, bia, record)
    caio = create_table(client, game="relogio", players=["Caio"])
    record_ok(client, caio, {"won": True})
    record_ok(client, caio, {"won": False})
    with app.app_context():
        rows = league.standings("relogio")
        assert rows == standings_from_hands("relogio")
        assert [(r.name, r.hands, r.won) for r in rows] == [("Bia", 2, 2), ("Ana", 4, 2), ("Caio", 2, 1)]
        assert rows[1].by_patience == (("relogio", 2, 1), ("relogio_real", 2, 1))
        assert all(r.net == 0 for r in rows)
    page = _page(client, "/league/relogio?season=all")
    assert page.index("Bia") < page.index("Ana") < page.index("Caio")
    assert "Win rate" in page and "Rating" not in page and "Per hand" not in page
    assert "50%" in page and "100%" in page
    assert "Relógio Real" in page  # Ana's row says how each patience went
    # A voided game no longer counts.
    assert void(client, caio, 1).status_code == 200
    with app.app_context():
        assert [(r.name, r.hands, r.won) for r in league.standings("relogio")][-1] == ("Caio", 1, 0)
    api = client.get(f"{API}/league/relogio/standings").get_json()
    assert api["standings"][0]["name"] == "Bia" and api["standings"][0]["win_rate"] == 1.0
    assert api["standings"][1]["patiences"] == {
        "relogio": {"games": 2, "wins": 1},
        "relogio_real": {"games": 2, "wins": 1},
    }


def test_the_cachorro_standings_and_the_empty_league(client: FlaskClient) -> None:
    assert "No Paciência do Cachorro hand" in _page(client, "/league/cachorro?season=all")
    play(client, "cachorro", ["Ana"])
    page = _page(client, "/league/cachorro?season=all")
    assert "Ana" in page and "67%" in page


def test_the_player_page_shows_the_win_rate_per_patience(app: Flask, client: FlaskClient) -> None:
    play(client, "relogio", ["Ana"])
    cachorro = play(client, "cachorro", ["Ana"])
    record_ok(client, cachorro, {"won": True, "round": 2})
    assert void(client, cachorro, 2).status_code == 200  # the lost game no longer counts: 3 of 3
    play(client, "koziri", ["Ana", "Bia"])
    with app.app_context():
        member = db.session.query(Member).filter_by(name="Ana").one()
    from referee.player_record import sittings
    from referee.views.players import patience_stats

    with app.test_request_context():
        member = db.session.get(Member, member.id)
        stats = patience_stats(member, sittings(member))
    assert {g: (s.games, s.wins) for g, s in stats.items()} == {
        "relogio": (2, 1),
        "relogio_real": (2, 1),
        "cachorro": (3, 3),
    }
    assert stats["cachorro"].win_rate == 1 and stats["relogio"].win_rate == Fraction(1, 2)
    page = _page(client, f"/players/{member.id}")
    section = page[page.index('id="patience-h"') : page.index("</section>", page.index('id="patience-h"'))]
    for name, rate in (("Relógio", "50%"), ("Relógio Real", "50%"), ("Paciência do Cachorro", "100%")):
        assert f'<th scope="row">{name}<span' in section and rate in section  # games and wins under the name
    assert "3 of 3 games won" in section and "1 of 2 games won" in section
    assert "King exchange used in 1 game" in section
    assert "Wins: 1 in round 1, 2 in round 2." in section
    assert 'id="game-koziri-h"' in page  # the paying game keeps its own card
    assert 'id="game-relogio-h"' not in page and 'id="game-cachorro-h"' not in page  # no net chart for a patience


def test_a_player_without_patience_has_no_patience_section(client: FlaskClient) -> None:
    play(client, "el_gato", P4)
    with client.application.app_context():
        member_id = db.session.query(Member).filter_by(name="Bia").one().id
    page = _page(client, f"/players/{member_id}")
    assert 'id="patience-h"' not in page and 'id="game-el_gato-h"' in page


def test_el_gato_for_nothing_is_ranked_by_hands_lost_per_hand(app: Flask, client: FlaskClient) -> None:
    """The usual stake is 0: nobody pays and every net is 0, so the league ranks El Gato by how
    often each player was left with the cards (fewest per hand first), counted from the hands."""
    table = create_table(client, game="el_gato", players=P4)
    for loser in ("Caio", "Ana", "Caio", "Dani", "Caio"):
        record_ok(client, table, {"loser": loser})
    two = create_table(client, game="el_gato", players=["Bia", "Dani"])
    for loser in ("Dani", "Bia"):
        record_ok(client, two, {"loser": loser})
    with app.app_context():
        rows = league.standings("el_gato")
        assert rows == standings_from_hands("el_gato")
        # Bia: 1 of 7 lost; Ana 1 of 5; Dani 2 of 7; Caio 3 of 5.
        assert [(r.name, r.hands, r.lost) for r in rows] == [
            ("Bia", 7, 1),
            ("Ana", 5, 1),
            ("Dani", 7, 2),
            ("Caio", 5, 3),
        ]
        assert all(r.net == 0 for r in rows)
    page = _page(client, "/league/el_gato?season=all")
    assert page.index(">Bia<") < page.index(">Ana<") < page.index(">Dani<") < page.index(">Caio<")
    assert re.search(r"0[.,]14", page) and re.search(r"0[.,]60", page)  # the losses per hand
    assert ">Net<" not in page and ">Saldo<" not in page  # played for nothing: no net column
    # A voided hand no longer counts against its loser.
    assert void(client, table, 5).status_code == 200
    api = client.get(f"{API}/league/el_gato/standings").get_json()
    caio = next(r for r in api["standings"] if r["name"] == "Caio")
    assert caio["lost"] == 2 and caio["loss_rate"] == 0.5


def test_other_games_carry_no_loss_count(app: Flask, client: FlaskClient) -> None:
    table = create_table(client, game="koziri", players=["Ana", "Bia"])
    record_ok(
        client, table, {"dealer_trump": "espadas", "dealer_second": "copas", "opponent_trump": "ouros", "winner": "Ana"}
    )
    with app.app_context():
        assert all(r.lost is None for r in league.standings("koziri"))
    assert "lost" not in client.get(f"{API}/league/koziri/standings").get_json()["standings"][0]


# --------------------------------------------------------------------------- each game's own word


def _words(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


@pytest.mark.parametrize(
    ("game", "players", "one", "recorded", "undone", "redo", "back", "newest"),
    [
        ("kentucky_derby", P4, "corrida", "Corrida 1 anotada.", "Corrida 1 desfeita.", "Refazer a corrida 1",
         "A corrida 1 voltou.", "Última corrida"),
        ("relogio", ["Ana"], "partida", "Partida 1 anotada.", "Partida 1 desfeita.", "Refazer a partida 1",
         "A partida 1 voltou.", "Última partida"),
    ],
)  # fmt: skip
def test_a_race_or_a_patience_game_is_called_by_its_own_word(
    app: Flask,
    client: FlaskClient,
    game: str,
    players: list[str],
    one: str,
    recorded: str,
    undone: str,
    redo: str,
    back: str,
    newest: str,
) -> None:
    """After a Derby race the bar says "Corrida 1 anotada.", after a Relógio "Partida 1
    anotada.", and so do undo and redo; the TV, the standings and the player page count races,
    never "mãos"."""
    table = play(client, game, players)
    tid = table["id"]
    client.set_cookie("lang", "pt_BR")
    assert client.post(f"/t/{tid}/scorer", data={"token": table["token"]}).status_code == 302
    count = len(get_table(client, tid)["hands"])  # the examples record several
    with client.session_transaction() as session:  # as if this phone had just saved the latest
        session["undo"] = {"table": tid, "number": count}
    page = _words(_page(client, f"/t/{tid}"))
    assert recorded.replace("1", str(count)) in page and "Mão" not in page
    page = _words(client.post(f"/t/{tid}/hands/{count}/undo", follow_redirects=True).get_data(as_text=True))
    assert undone.replace("1", str(count)) in page and redo.replace("1", str(count)) in page
    page = _words(client.post(f"/t/{tid}/hands/{count}/redo", follow_redirects=True).get_data(as_text=True))
    assert back.replace("1", str(count)) in page
    tv = _words(_page(client, f"/tv/{tid}"))
    assert newest in tv and "Última mão" not in tv
    if game == "kentucky_derby":
        standings = _words(_page(client, f"/league/{game}?season=all"))
        assert f"{count} corridas" in standings and "mãos" not in standings and "Por corrida" in standings
        with app.app_context():
            ana = db.session.query(Member).filter_by(name="Ana").one().id
        player = _words(_page(client, f"/players/{ana}"))
        assert "Corridas" in player and f"{count} corridas" in player and "mãos" not in player.lower()
