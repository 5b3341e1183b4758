"""Koziri's referee helpers: the deal helper and the answer checker, as
pages (/koziri/deal, /koziri/answer) and as API endpoints (POST /api/v1/koziri/deal,
/api/v1/koziri/answer). Stateless: nothing is ever stored.

The worked examples are the rule text's (see tests/rules/test_koziri_play.py): the
procedure example (32 cards; the dealer ♠ trump, ♥ second; the opponent ♦ trump; the dealer
turned up K Q J 10 of spades and A Q J 10 9 8 of hearts), the text's "an ace of spades led
against the dealer whose trump is spades must be taken", and the practical example's answers.
"""

from __future__ import annotations

import html as html_text
import re
from html.parser import HTMLParser
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.extensions import db
from referee.models import Hand

from .api_support import API, create_table, get_table

EXAMPLE_TURNED_UP = "K♠ Q♠ J♠ 10♠ A♥ Q♥ J♥ 10♥ 9♥ 8♥"
EXAMPLE_DEALER = "K♠ Q♠ J♠ 10♠ A♥ Q♥ J♥ 10♥ 9♥ 8♥ A♦ 9♦ 8♦ 7♦ K♣ 7♣"
EXAMPLE_OPPONENT = "K♦ Q♦ J♦ 10♦ A♣ Q♣ J♣ 10♣ 9♣ 8♣ A♠ 9♠ 8♠ 7♠ K♥ 7♥"
SUITS = {"dealer_trump": "espadas", "dealer_second": "copas", "opponent_trump": "ouros"}
SLUG = {"♥": "copas", "♦": "ouros", "♠": "espadas", "♣": "paus"}
LETTER = {"♥": "c", "♦": "o", "♠": "e", "♣": "p"}


def card(short: str) -> dict[str, str]:
    return {"rank": short[:-1], "suit": SLUG[short[-1]]}


def cards(text: str) -> list[dict[str, str]]:
    return [card(x) for x in text.split()]


def shorts(raw: list[dict[str, str]]) -> str:
    symbol = {v: k for k, v in SLUG.items()}
    return " ".join(c["rank"] + symbol[c["suit"]] for c in raw)


def codes(text: str) -> list[str]:
    """The page's card codes: rank and suit letter ("Ke" is the king of spades)."""
    return [x[:-1] + LETTER[x[-1]] for x in text.split()]


def koziri_table(client: FlaskClient, **options: Any) -> dict[str, Any]:
    return create_table(client, game="koziri", players=["Ana", "Bia"], options=options, language="en")


def no_hand_stored(app: Flask) -> bool:
    with app.app_context():
        return db.session.query(Hand).count() == 0


def assert_error(response: Any, status: int, field: str | None = None, code: str | None = None) -> dict[str, Any]:
    """The error shape of the API contract (docs/api.md): one sentence, the field it is about."""
    assert response.status_code == status, response.get_data(as_text=True)
    body = response.get_json()["error"]
    assert body["message"].endswith(".") and len(body["message"]) > 10, body
    if field is not None:
        assert body.get("field") == field, body
    if code is not None:
        assert body["code"] == code, body
    return body


# --------------------------------------------------------------------------- API: the deal helper


def deal(client: FlaskClient, **body: Any) -> Any:
    return client.post(f"{API}/koziri/deal?language=en", json=body)


def test_api_deal_the_dealing_procedure_example(client: FlaskClient, app: Flask) -> None:
    response = deal(client, **SUITS, turned_up=cards(EXAMPLE_TURNED_UP))
    assert response.status_code == 200, response.get_data(as_text=True)
    out = response.get_json()
    assert out["deck"] == 32 and out["opponent_second"] == "paus"
    assert shorts(out["kept"]) == EXAMPLE_TURNED_UP
    assert (
        shorts(out["matched"]) == "K♦ Q♦ J♦ 10♦ A♣ Q♣ J♣ 10♣ 9♣ 8♣"
    )  # "Rei, Dama, Valete e Dez de Ouros e Ás, Dama, ..."
    assert shorts(out["to_opponent"]) == "A♠ 9♠ 8♠ 7♠ K♥ 7♥"
    assert shorts(out["to_dealer"]) == "A♦ 9♦ 8♦ 7♦ K♣ 7♣"
    assert shorts(out["hands"]["dealer"]) == EXAMPLE_DEALER
    assert shorts(out["hands"]["opponent"]) == EXAMPLE_OPPONENT
    assert out["first_lead"] == "opponent" and out["players"] is None
    assert no_hand_stored(app)


@pytest.mark.parametrize("deck", [20, 24, 32])
def test_api_deal_each_player_gets_half_the_pack(client: FlaskClient, deck: int) -> None:
    out = deal(client, **SUITS, deck=deck, turned_up=cards("A♠ 10♥")).get_json()
    assert len(out["hands"]["dealer"]) == len(out["hands"]["opponent"]) == deck // 2
    everything = out["hands"]["dealer"] + out["hands"]["opponent"]
    assert len({(c["rank"], c["suit"]) for c in everything}) == deck


def test_api_deal_at_a_table(client: FlaskClient) -> None:
    """The pack, the names, the rotation's dealer and who leads come from the table."""
    table = koziri_table(client, deck=20, first_lead="dealer")
    out = deal(client, table=table["id"], **SUITS, turned_up=cards("A♠ K♥")).get_json()
    assert out["deck"] == 20 and len(out["hands"]["dealer"]) == 10
    assert out["players"] == {"dealer": "Bia", "opponent": "Ana"}  # the last player deals first
    assert out["first_lead"] == "dealer"
    out = deal(client, table=table["id"], dealer="Ana", **SUITS, turned_up=[]).get_json()
    assert out["players"] == {"dealer": "Ana", "opponent": "Bia"}
    assert get_table(client, table["id"])["hands"] == []


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({**SUITS, "turned_up": cards("K♠ 9♦")}, 422, "turned_up[1]"),  # the opponent's suit: back to the pack
        ({**SUITS, "turned_up": cards("K♠ Q♥ K♠")}, 422, "turned_up[2]"),  # named twice
        ({**SUITS, "deck": 20, "turned_up": cards("9♠")}, 422, "turned_up[0].rank"),  # no 9 in 20 cards
        ({**SUITS, "deck": 20, "turned_up": cards("A♠ K♠ Q♠ J♠ 10♠ A♥ K♥ Q♥ J♥ 10♥ A♠")}, 422, "turned_up[10]"),
        ({**SUITS, "opponent_trump": "copas", "turned_up": []}, 422, "opponent_trump"),  # the dealer's suit
        ({**SUITS, "dealer_second": "espadas", "turned_up": []}, 422, "dealer_second"),
        ({**SUITS}, 400, "turned_up"),
        ({**SUITS, "turned_up": "K♠"}, 400, "turned_up"),
        ({**SUITS, "deck": 28, "turned_up": []}, 400, "deck"),
        ({**SUITS, "deck": True, "turned_up": []}, 400, "deck"),
        ({**SUITS, "dealer": "Ana", "turned_up": []}, 400, "dealer"),  # a name needs a table
        ({**SUITS, "winner": "Ana", "turned_up": []}, 400, "winner"),
        ({**SUITS, "table": 7, "turned_up": []}, 400, "table"),
        (
            {"dealer_trump": "spades", "dealer_second": "copas", "opponent_trump": "ouros", "turned_up": []},
            400,
            "dealer_trump",
        ),
    ],
)
def test_api_deal_refusals(client: FlaskClient, app: Flask, body: dict[str, Any], status: int, field: str) -> None:
    assert_error(deal(client, **body), status, field)
    assert no_hand_stored(app)


def test_api_deal_refusals_about_the_table(client: FlaskClient) -> None:
    assert_error(deal(client, table="no-such-table", **SUITS, turned_up=[]), 404, code="not_found")
    jubileu = create_table(client)
    assert_error(deal(client, table=jubileu["id"], **SUITS, turned_up=[]), 422, "table")
    table = koziri_table(client, deck=24)
    body = assert_error(deal(client, table=table["id"], deck=32, **SUITS, turned_up=[]), 400, "deck")
    assert "24" in body["message"]
    assert_error(deal(client, table=table["id"], dealer="Caio", **SUITS, turned_up=[]), 422, "dealer", "unknown_player")
    for raw in ("not json", "[1, 2]"):
        response = client.post(f"{API}/koziri/deal", data=raw, content_type="application/json")
        assert_error(response, 400, code="invalid_input")


def test_api_errors_speak_portuguese_by_default(client: FlaskClient) -> None:
    body = assert_error(
        client.post(f"{API}/koziri/deal", json={**SUITS, "opponent_trump": "copas", "turned_up": []}), 422
    )
    english = assert_error(deal(client, **{**SUITS, "opponent_trump": "copas"}, turned_up=[]), 422)
    assert body["message"] != english["message"]


# --------------------------------------------------------------------------- API: the answer checker


def answer(client: FlaskClient, **body: Any) -> Any:
    return client.post(f"{API}/koziri/answer?language=en", json={**SUITS, **body})


def test_api_answer_the_texts_example_the_ace_of_the_dealers_trump_must_be_taken(client: FlaskClient) -> None:
    """ "se o adversário do carteador iniciar o jogo descartando um Ás de Espadas, o
    carteador é obrigado a pegá-lo": nothing in the pack beats it for him, whatever his hand."""
    out = answer(client, answers="dealer", top=card("A♠"), answer="take").get_json()
    assert out["legal"] and out["how"] == "take" and out["compulsory"]
    assert out["beating_in_pack"] == [] and out["answers"] == "dealer"
    assert out["reason"] == "Dealer must take the pile: nothing in the pack beats the Ace of spades."
    out = answer(client, answers="dealer", top=card("A♠"), answer=card("K♠")).get_json()
    assert not out["legal"] and out["how"] is None and "own trump suit" in out["reason"]
    out = answer(client, answers="dealer", top=card("A♠"), answer=card("A♦"), hand=cards(EXAMPLE_DEALER)).get_json()
    assert not out["legal"] and "other player's trump" in out["reason"]


@pytest.mark.parametrize(
    ("who", "top", "reply", "legal", "how", "words"),
    [
        # The rule text's practical example: the opponent leads the 8♥ ...
        ("dealer", "8♥", "9♥", True, "higher", "higher than the Eight of hearts"),
        ("dealer", "8♥", "8♠", True, "trump", "one of Dealer's trumps"),  # any of his five trumps
        ("dealer", "K♥", "8♠", True, "trump", "one of Dealer's trumps"),
        # ... the 9♠ on the dealer's 8♠: his trump is a plain suit for the opponent.
        ("opponent", "8♠", "9♠", True, "higher", "higher than the Eight of spades"),
        ("opponent", "A♠", "7♦", True, "trump", "plain card for Opponent"),
        # The other player's trump is no trump for me.
        ("dealer", "8♥", "A♦", False, None, "other player's trump"),
        ("opponent", "8♣", "A♠", False, None, "other player's trump"),
        ("dealer", "8♥", "7♥", False, None, "lower"),
        ("dealer", "8♥", "A♣", False, None, "neither a higher hearts nor one of Dealer's trumps"),
    ],
)
def test_api_answers(
    client: FlaskClient, who: str, top: str, reply: str, legal: bool, how: str | None, words: str
) -> None:
    out = answer(client, answers=who, top=card(top), answer=card(reply)).get_json()
    assert (out["legal"], out["how"]) == (legal, how)
    assert words in out["reason"], out["reason"]


def test_api_answer_what_beats_the_card_in_the_pack(client: FlaskClient) -> None:
    """A take without the hand: allowed, compulsory only for a player who holds none of these."""
    out = answer(client, deck=20, answers="dealer", top=card("K♥"), answer="take").get_json()
    assert out["legal"] and not out["compulsory"] and out["beating"] is None
    assert shorts(out["beating_in_pack"]) == "A♥ 10♠ J♠ Q♠ K♠ A♠"
    assert "always take" in out["reason"]


def test_api_answer_with_the_hand(client: FlaskClient) -> None:
    """Taking is allowed by choice; with nothing in the hand that beats, it is compulsory."""
    out = answer(client, answers="dealer", top=card("8♥"), answer="take", hand=cards("9♥ 7♠ 7♣")).get_json()
    assert out["legal"] and not out["compulsory"] and shorts(out["beating"]) == "9♥ 7♠"
    assert "by choice" in out["reason"]
    out = answer(client, answers="dealer", top=card("8♥"), answer="take", hand=cards("7♥ 7♣ A♦")).get_json()
    assert out["compulsory"] and out["beating"] == []
    out = answer(client, answers="dealer", top=card("8♥"), answer=card("9♥"), hand=cards("10♥ 7♠")).get_json()
    assert not out["legal"] and "does not hold" in out["reason"]


def test_api_answer_at_a_table(client: FlaskClient) -> None:
    table = koziri_table(client)
    out = answer(client, table=table["id"], answers="Ana", top=card("A♠"), answer=card("10♦")).get_json()
    assert out["legal"] and out["how"] == "trump" and out["answers"] == "opponent"
    assert "one of Ana's trumps" in out["reason"] and "plain card for Ana" in out["reason"]
    assert out["players"] == {"dealer": "Bia", "opponent": "Ana"}
    # With Ana dealing, spades are her trump: the 10♦ (Bia's trump) is a plain card for her.
    out = answer(client, table=table["id"], dealer="Ana", answers="Ana", top=card("A♥"), answer=card("10♦")).get_json()
    assert not out["legal"] and out["answers"] == "dealer"
    assert get_table(client, table["id"])["hands"] == []


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({"answers": "dealer", "top": card("8♥")}, 400, "answer"),
        ({"answers": "dealer", "top": card("8♥"), "answer": "pass"}, 400, "answer"),
        ({"answers": "dealer", "answer": "take"}, 400, "top"),
        ({"top": card("8♥"), "answer": "take"}, 400, "answers"),
        ({"answers": "Ana", "top": card("8♥"), "answer": "take"}, 400, "answers"),  # no table: a seat
        ({"answers": "dealer", "top": {"rank": "8"}, "answer": "take"}, 400, "top"),
        ({"answers": "dealer", "deck": 20, "top": card("8♥"), "answer": "take"}, 422, "top.rank"),
        ({"answers": "dealer", "top": card("8♥"), "answer": "take", "hand": cards("8♥ 7♠")}, 422, "hand"),
        ({"answers": "dealer", "top": card("8♥"), "answer": "take", "hand": cards("9♥ 9♥")}, 422, "hand[1]"),
        (
            {"answers": "dealer", "top": card("8♥"), "answer": "take", "opponent_trump": "espadas"},
            422,
            "opponent_trump",
        ),
        ({"answers": "dealer", "top": card("8♥"), "answer": "take", "dealer": "Ana"}, 400, "dealer"),
        ({"answers": "dealer", "top": card("8♥"), "answer": "take", "turned_up": []}, 400, "turned_up"),
    ],
)
def test_api_answer_refusals(client: FlaskClient, app: Flask, body: dict[str, Any], status: int, field: str) -> None:
    assert_error(answer(client, **body), status, field)
    assert no_hand_stored(app)


def test_api_answer_refusals_at_a_table(client: FlaskClient) -> None:
    table = koziri_table(client)
    assert_error(
        answer(client, table=table["id"], answers="Caio", top=card("8♥"), answer="take"),
        422,
        "answers",
        "unknown_player",
    )
    assert_error(answer(client, table=table["id"], answers="dealer", top=card("8♥"), answer="take"), 422, "answers")
    assert_error(answer(client, table="nope", answers="Ana", top=card("8♥"), answer="take"), 404)


# --------------------------------------------------------------------------- the pages


class Hands(HTMLParser):
    """The cards listed in the element with a given id, as written on them ("K♠")."""

    def __init__(self, element_id: str) -> None:
        super().__init__()
        self.element_id = element_id
        self.depth = 0  # > 0 inside the element
        self.in_chip = False
        self.cards: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if self.depth:
            self.depth += 1
            if tag == "span" and attributes.get("aria-hidden") == "true" and self.parent_chip:
                self.in_chip = True
        elif attributes.get("id") == self.element_id:
            self.depth = 1
        self.parent_chip = tag == "li" and "kz-chip" in (attributes.get("class") or "")

    def handle_endtag(self, tag: str) -> None:
        if self.depth:
            self.depth -= 1
        self.in_chip = False

    def handle_data(self, data: str) -> None:
        if self.in_chip:
            self.cards.append(data.strip())

    parent_chip = False


def listed(html: str, element_id: str) -> str:
    parser = Hands(element_id)
    parser.feed(html)
    return " ".join(parser.cards)


def page(client: FlaskClient, path: str, **query: Any) -> tuple[int, str]:
    """The status and the page, its entities decoded (the engine's sentences are escaped)."""
    response = client.get(path, query_string=query)
    return response.status_code, html_text.unescape(response.get_data(as_text=True))


def english(client: FlaskClient) -> None:
    client.get("/lang/en")


def test_deal_page_the_suits_then_the_cards_then_both_hands(client: FlaskClient, app: Flask) -> None:
    english(client)
    status, html = page(client, "/koziri/deal")
    assert status == 200
    assert 'name="dealer_trump"' in html and 'name="opponent_trump"' in html and 'value="cards"' in html
    assert re.search(r'name="deck" value="32"\s+checked', html)

    status, html = page(client, "/koziri/deal", step="cards", **SUITS)
    assert status == 200
    offered = re.findall(r'name="c" value="([^"]+)"', html)
    assert offered == codes("A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ A♥ K♥ Q♥ J♥ 10♥ 9♥ 8♥ 7♥")  # only the dealer's suits
    assert "16 cards" in html  # half the pack

    status, html = page(client, "/koziri/deal", step="hands", **SUITS, c=codes(EXAMPLE_TURNED_UP))
    assert status == 200, html
    assert listed(html, "hand-dealer") == EXAMPLE_DEALER
    assert listed(html, "hand-opponent") == EXAMPLE_OPPONENT
    assert "Opponent leads first." in html
    assert "/koziri/answer?" in html and "dealer_trump=espadas" in html  # on to the answer checker
    assert no_hand_stored(app)


def test_deal_page_nothing_turned_up(client: FlaskClient) -> None:
    status, html = page(client, "/koziri/deal", step="hands", deck="20", **SUITS)
    assert status == 200
    assert listed(html, "hand-dealer") == "A♦ K♦ Q♦ J♦ 10♦ A♣ K♣ Q♣ J♣ 10♣"


@pytest.mark.parametrize(
    ("query", "status", "words"),
    [
        ({"step": "hands", **SUITS, "c": codes("K♠ 9♦")}, 422, "opponent's suits"),
        ({"step": "hands", **SUITS, "deck": "20", "c": codes("9♠")}, 422, "no 9 in the 20-card pack"),
        ({"step": "hands", **SUITS, "c": ["Zx"]}, 400, "not a card rank"),
        ({"step": "hands", **SUITS, "c": ["Kx"]}, 400, "is not a suit"),
        ({"step": "cards", **SUITS, "opponent_trump": "copas"}, 422, "one of the two suits the dealer left"),
        ({"step": "cards", "dealer_trump": "espadas"}, 400, "Give the dealer's second suit."),
        ({"step": "hands", "dealer_trump": "nope"}, 400, "nope is not a suit"),
    ],
)
def test_deal_page_refusals(client: FlaskClient, app: Flask, query: dict[str, Any], status: int, words: str) -> None:
    english(client)
    got, html = page(client, "/koziri/deal", **query)
    assert got == status, html
    assert words in html
    assert 'class="field-error"' in html
    assert no_hand_stored(app)


def test_deal_page_from_a_table(client: FlaskClient) -> None:
    english(client)
    table = koziri_table(client, deck=20)
    status, html = page(client, "/koziri/deal", t=table["id"])
    assert status == 200 and 'name="t" value="{}"'.format(table["id"]) in html
    assert 'name="dealer" value="Bia" checked' in html  # the rotation's dealer
    assert 'name="deck"' not in html  # the table's pack
    status, html = page(client, "/koziri/deal", t=table["id"], step="cards", **SUITS)
    assert re.findall(r'name="c" value="([^"]+)"', html) == codes("A♠ K♠ Q♠ J♠ 10♠ A♥ K♥ Q♥ J♥ 10♥")
    status, html = page(client, "/koziri/deal", t=table["id"], dealer="Ana", step="hands", **SUITS, c=codes("A♠"))
    assert status == 200
    assert "Ana, the dealer" in html and "Bia, the opponent" in html
    # Bia gets the A♦ for Ana's A♠ and the rest of Ana's suits; Ana keeps the rest of ♦ and ♣.
    assert listed(html, "hand-opponent") == "A♦ K♠ Q♠ J♠ 10♠ A♥ K♥ Q♥ J♥ 10♥"
    assert listed(html, "hand-dealer") == "A♠ K♦ Q♦ J♦ 10♦ A♣ K♣ Q♣ J♣ 10♣"
    assert "Bia leads first." in html
    assert get_table(client, table["id"])["hands"] == []


def test_pages_refuse_an_unknown_table_or_another_game(client: FlaskClient) -> None:
    jubileu = create_table(client)
    for path in ("/koziri/deal", "/koziri/answer"):
        assert client.get(path, query_string={"t": "nope"}).status_code == 404
        assert client.get(path, query_string={"t": jubileu["id"]}).status_code == 404


def test_the_table_page_links_both_helpers(client: FlaskClient) -> None:
    table = koziri_table(client)
    client.post(f"/t/{table['id']}/scorer", data={"token": table["token"]})
    html = client.get(f"/t/{table['id']}").get_data(as_text=True)
    assert f'href="/koziri/deal?t={table["id"]}"' in html
    assert f'href="/koziri/answer?t={table["id"]}"' in html


def check(client: FlaskClient, **query: Any) -> tuple[int, str]:
    return page(client, "/koziri/answer", check="1", **query)


def test_answer_page_the_texts_example(client: FlaskClient, app: Flask) -> None:
    english(client)
    status, html = page(client, "/koziri/answer")
    assert status == 200 and 'name="top_rank"' in html and 'value="take"' in html and "field-error" not in html
    status, html = check(
        client,
        dealer_trump="espadas",
        opponent_trump="ouros",
        who="dealer",
        top_rank="A",
        top_suit="espadas",
        answer_rank="take",
    )
    assert status == 200, html
    assert "Dealer must take the pile" in html
    assert "Nothing in the pack beats the A♠ for Dealer." in html
    status, html = check(
        client,
        dealer_trump="espadas",
        opponent_trump="ouros",
        who="dealer",
        top_rank="A",
        top_suit="espadas",
        answer_rank="K",
        answer_suit="espadas",
    )
    assert status == 200 and "Not allowed" in html and "only a higher trump beats it" in html
    assert no_hand_stored(app)


def test_answer_page_a_legal_answer_and_what_beats(client: FlaskClient) -> None:
    english(client)
    status, html = check(
        client,
        dealer_trump="espadas",
        opponent_trump="ouros",
        who="opponent",
        top_rank="8",
        top_suit="espadas",
        answer_rank="9",
        answer_suit="espadas",
    )
    assert status == 200 and "Legal answer" in html and "higher than the Eight of spades" in html
    # For the opponent ♠ is a plain suit: the higher spades or any of his diamonds beat the 8♠.
    assert (
        "A higher card of the same suit (9♠, 10♠, J♠, Q♠, K♠, A♠) or any of Opponent's trumps (diamonds) beats the 8♠."
        in html
    )
    status, html = check(
        client,
        dealer_trump="espadas",
        opponent_trump="ouros",
        who="dealer",
        top_rank="8",
        top_suit="copas",
        answer_rank="A",
        answer_suit="ouros",
    )
    assert status == 200 and "Not allowed" in html and "other player's trump" in html


def test_answer_page_with_the_hand(client: FlaskClient) -> None:
    english(client)
    base = {
        "dealer_trump": "espadas",
        "opponent_trump": "ouros",
        "who": "dealer",
        "top_rank": "8",
        "top_suit": "copas",
        "answer_rank": "take",
    }
    status, html = check(client, **base, h=codes("9♥ 7♠ 7♣"))
    assert status == 200 and "may take the pile by choice" in html
    status, html = check(client, **base, h=codes("7♥ 7♣"))
    assert status == 200 and "Dealer must take the pile" in html
    status, html = check(client, **base, h=codes("8♥ 7♣"))
    assert status == 422 and "cannot be in Dealer's hand" in html


def test_answer_page_at_a_table_names_the_players(client: FlaskClient) -> None:
    english(client)
    table = koziri_table(client, deck=20)
    status, html = page(client, "/koziri/answer", t=table["id"], dealer_trump="espadas", opponent_trump="ouros")
    assert status == 200 and 'value="espadas" checked' in html
    assert 'name="top_rank" value="9"' not in html  # a 20-card pack
    status, html = check(
        client,
        t=table["id"],
        dealer_trump="espadas",
        opponent_trump="ouros",
        who="opponent",
        top_rank="A",
        top_suit="espadas",
        answer_rank="10",
        answer_suit="ouros",
    )
    assert status == 200 and "one of Ana's trumps" in html
    status, html = check(
        client,
        t=table["id"],
        dealer_trump="espadas",
        opponent_trump="ouros",
        who="opponent",
        top_rank="9",
        top_suit="espadas",
        answer_rank="take",
    )
    assert status == 422 and "There is no 9 in the 20-card pack" in html


@pytest.mark.parametrize(
    ("query", "status", "words"),
    [
        ({}, 400, "Choose who answers."),
        ({}, 400, "Give the dealer's trump suit."),
        (
            {
                "dealer_trump": "espadas",
                "opponent_trump": "espadas",
                "who": "dealer",
                "top_rank": "8",
                "top_suit": "copas",
                "answer_rank": "take",
            },
            422,
            "cannot be both",
        ),
        (
            {
                "dealer_trump": "espadas",
                "opponent_trump": "ouros",
                "who": "dealer",
                "top_rank": "8",
                "answer_rank": "take",
            },
            400,
            "Choose the card on top of the pile",
        ),
        (
            {
                "dealer_trump": "espadas",
                "opponent_trump": "ouros",
                "who": "dealer",
                "top_rank": "8",
                "top_suit": "copas",
                "answer_rank": "9",
            },
            400,
            "Choose the answer",
        ),
        (
            {
                "dealer_trump": "espadas",
                "opponent_trump": "ouros",
                "who": "dealer",
                "top_rank": "5",
                "top_suit": "copas",
                "answer_rank": "take",
            },
            422,
            "There is no 5 in a Koziri pack",
        ),
        (
            {
                "dealer_trump": "espadas",
                "opponent_trump": "ouros",
                "who": "dealer",
                "top_rank": "8",
                "top_suit": "copas",
                "answer_rank": "take",
                "h": ["Qz"],
            },
            400,
            "is not a suit",
        ),
    ],
)
def test_answer_page_refusals(client: FlaskClient, app: Flask, query: dict[str, Any], status: int, words: str) -> None:
    english(client)
    got, html = check(client, **query)
    assert got == status, html
    assert words in html and "field-error" in html
    assert no_hand_stored(app)
