"""A table's house rules are in sight wherever a result depends on them: the table page, its
watch link, the settle-up and the TV view each carry a "Regras da casa" line naming only the
options that differ from the game's default, each with the sentence that explains it."""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask.testing import FlaskClient

from .api_support import EXAMPLE_RECORD, create_table, record_ok

PT = {"Accept-Language": "pt-BR"}
PAGES = ("/t/{id}", "/w/{id}", "/t/{id}/settle", "/tv/{id}")


def house_rules_of(html: str) -> str | None:
    """The text of the page's house-rules line, or None when the page has none."""
    found = re.search(r'<section class="card house-rules-line".*?</section>', html, re.S)
    if found is None:
        return None
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", found.group(0))).split())


@pytest.mark.parametrize("page", PAGES)
def test_a_changed_option_is_shown_with_its_sentence(client: FlaskClient, page: str) -> None:
    table = create_table(client, options={"overtricks": False, "chip_value": "0.50"})
    record_ok(client, table, EXAMPLE_RECORD)
    line = house_rules_of(client.get(page.format(id=table["id"]), headers=PT).get_data(as_text=True))
    assert line is not None
    assert line.startswith("Regras da casa")
    assert "Vazas a mais são pagas: não." in line
    assert "O declarante que faz mais vazas do que prometeu ganha de cada pagador" in line
    assert "R$ 0,50" in line
    # An option left at its default is not listed.
    assert "Vazas a mais também nos contratos" not in line


@pytest.mark.parametrize("page", PAGES)
def test_defaults_show_no_house_rules_line(client: FlaskClient, page: str) -> None:
    table = create_table(client)
    record_ok(client, table, EXAMPLE_RECORD)
    html = client.get(page.format(id=table["id"]), headers=PT).get_data(as_text=True)
    assert house_rules_of(html) is None


def test_a_choice_is_shown_by_its_words_in_a_match_game(client: FlaskClient) -> None:
    """A game scored to a target (Samba) shows its scoreboard on the settle page: the line is
    there too, and a number reads as a number."""
    table = create_table(
        client,
        game="samba",
        players=["Ana", "Bia", "Caio", "Dani"],
        options={"target": 7500},
    )
    for page in PAGES:
        line = house_rules_of(client.get(page.format(id=table["id"]), headers=PT).get_data(as_text=True))
        assert line is not None and "7.500" in line, (page, line)


def test_a_number_from_a_short_list_reads_as_its_choice(client: FlaskClient) -> None:
    """Koziri's pack is a number with named sizes: the line names the size as the form does."""
    table = create_table(client, game="koziri", players=["Ana", "Bia"], options={"deck": 24})
    line = house_rules_of(client.get(f"/t/{table['id']}", headers=PT).get_data(as_text=True))
    assert line is not None and "Cartas no baralho: 24 cartas (do ás ao 9)." in line, line
