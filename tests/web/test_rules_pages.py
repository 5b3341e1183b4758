"""The "how Referee judges" pages (/games/<slug>): one per game, their tables drawn from the
engines (Kentucky Derby's movement table, El Gato's player counts, Lift Smoke's deal, the
Cachorro's layouts, Koziri's packs), every house rule of the engine's OPTIONS listed, and the
new-table chooser offering every game."""

from __future__ import annotations

import html
import re

import pytest
from flask.testing import FlaskClient

from referee.rules import GAMES
from referee.views.games import PAGES


@pytest.fixture(autouse=True)
def english(client: FlaskClient) -> None:
    client.set_cookie("lang", "en")


def _page(client: FlaskClient, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, response.get_data(as_text=True)[:500]
    return html.unescape(response.get_data(as_text=True))


def _rows(page: str, heading: str) -> list[list[str]]:
    """The body rows of the first table after ``heading``, each as its cells' text."""
    start = page.index(heading)
    body = page[page.index("<tbody>", start) : page.index("</tbody>", start)]
    return [
        [
            " ".join(re.sub(r"<[^>]+>", " ", cell).split())
            for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        ]
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)
    ]


def test_every_game_has_its_page_and_nothing_else_does(client: FlaskClient) -> None:
    assert set(PAGES) == set(GAMES)
    _page(client, "/games/poker", status=404)


@pytest.mark.parametrize("slug", list(GAMES))
def test_each_page_names_the_game_and_lists_every_house_rule_of_its_engine(client: FlaskClient, slug: str) -> None:
    page = _page(client, f"/games/{slug}")
    assert f"<h1>How Referee judges {GAMES[slug].name}</h1>" in page
    assert "What Referee checks" in page
    house = page[page.index("House rules a table can choose") :]
    for spec in GAMES[slug].option_specs:
        assert spec.label.render() in house and spec.help.render() in house, spec.name
    assert len(re.findall(r"<dt>", house)) == len(GAMES[slug].option_specs)


def test_the_derby_movement_table_is_the_one_of_the_rule_text(client: FlaskClient) -> None:
    """The rule text, for the hearts horse: a card of the other colour, of its colour, of its
    own suit (the half space more, KD-2: not on a Two; KD-1: other-colour spot cards move 0)."""
    rows = _rows(_page(client, "/games/kentucky_derby"), "How far a card moves a horse")
    assert rows == [
        ["King", "+2", "+2", "+2.5"],
        ["Queen", "+1.5", "+1.5", "+2"],
        ["Jack", "+1", "+1", "+1.5"],
        ["7 to 10", "0", "+1", "+1.5"],
        ["3 to 6", "0", "+0.5", "+1"],
        ["Two", "−1", "−0.5", "−0.5"],
    ]


def test_the_derby_page_says_the_track_the_stock_and_second_place(client: FlaskClient) -> None:
    page = _page(client, "/games/kentucky_derby")
    assert "lays 7 cards face down" in page and "At most 41 cards can be turned" in page
    assert "With more than 6 players the second horse counts too" in page
    assert re.search(r"♥.*hearts.*♦.*diamonds.*♠.*spades.*♣.*clubs", page, re.S)


def test_el_gato_lists_the_counts_that_share_the_40_cards(client: FlaskClient) -> None:
    page = _page(client, "/games/el_gato")
    assert _rows(page, "How many can play") == [["2", "20"], ["4", "10"], ["5", "8"], ["8", "5"], ["10", "4"]]
    assert "a table of 3, 6, 7 or 9 players is refused" in page
    assert "sota (10) › 9 › 8 › 7 › 6 › 5 › 4 › 3 › 2 › ace (1)" in page


def test_lift_smoke_gives_the_deal_for_each_table_size(client: FlaskClient) -> None:
    assert _rows(_page(client, "/games/lift_smoke"), "The deal") == [
        ["4", "4", "36"],
        ["5", "5", "27"],
        ["6", "6", "16"],
    ]


def test_the_cachorro_page_gives_each_rounds_layout(client: FlaskClient) -> None:
    page = _page(client, "/games/cachorro")
    assert _rows(page, "The deals") == [["1", "12", "3 cards"], ["2", "11", "4 cards"], ["3", "10", "5 cards"]]
    assert "A game that came out says in which round: 1, 2, 3." in page


def test_the_relogio_page_covers_both_clocks(client: FlaskClient) -> None:
    page = _page(client, "/games/relogio")
    assert "<h2>Relógio</h2>" in page and "<h2>Relógio Real</h2>" in page
    assert "Removing 3 sequences or more wins the game." in page
    assert "a number from 0 to 4" in page


def test_koziri_lists_the_packs_and_links_its_two_helpers(client: FlaskClient) -> None:
    page = _page(client, "/games/koziri")
    assert _rows(page, "The pack") == [
        ["20", "A K Q J 10", "10"],
        ["24", "A K Q J 10 9", "12"],
        ["32 · default", "A K Q J 10 9 8 7", "16"],
    ]
    assert 'href="/koziri/deal"' in page and 'href="/koziri/answer"' in page
    for helper in ("/koziri/deal", "/koziri/answer"):
        assert client.get(helper).status_code == 200


def test_injun_gives_the_card_order_and_both_betting_systems(client: FlaskClient) -> None:
    page = _page(client, "/games/injun")
    assert "From 2 to 15 players" in page
    assert "A K Q J 10 9 8 7 6 5 4 3 2" in page
    assert "Every bet is exactly 1 chip." in page and "pay 2 chips to see" in page


def test_the_chooser_offers_every_game(client: FlaskClient) -> None:
    chooser = _page(client, "/tables/new")
    for slug, rules in GAMES.items():
        assert f"/tables/new?game={slug}" in chooser and rules.name in chooser


def test_each_game_states_its_own_first_dealer(client: FlaskClient) -> None:
    """The new-table form says how the chosen game finds its first dealer: Quatrilho's rules name
    none (only the mão on the dealer's right), Kentucky Derby's the highest card; the Derby's rules
    page says it too."""
    quatrilho = _page(client, "/tables/new?game=quatrilho")
    assert "lowest card" not in quatrilho
    assert "The rules do not say how the first dealer is chosen" in quatrilho
    derby = _page(client, "/tables/new?game=kentucky_derby")
    assert "Whoever draws the highest card (the ace is high) deals the first race." in derby
    rules = _page(client, "/games/kentucky_derby")
    assert "Whoever draws the highest card (the ace is high) deals the first race." in rules
    assert "lowest card" in _page(client, "/tables/new?game=jubileu")
