"""Words a Brazilian player would write around the ratings and the Koziri table form: a plain
Portuguese name for the rating, "provisório" agreeing with what it qualifies, and the pack's size
under a heading that is about the game, not about the stakes."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from .test_players import evening, member_id

__all__ = ["evening"]  # the fixture, used by name

PT = {"Accept-Language": "pt-BR"}


def text_of(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def test_the_player_page_says_provisional_with_its_games(client: FlaskClient, app: Flask, evening: Any) -> None:
    html = client.get(f"/players/{member_id(app, 'Ana')}", headers=PT).get_data(as_text=True)
    start = html.index('id="ratings-h"')
    section = text_of(html[html.index(">", start) + 1 : html.index("</section>", start)])
    assert section.startswith("Nível ")
    assert "rating" not in section.lower()
    assert "provisório (2 partidas)" in section, section
    assert not re.search(r"partidas? provisório", section)


def test_the_standings_name_the_rating_in_plain_portuguese(client: FlaskClient, evening: Any) -> None:
    page = text_of(client.get("/league/jubileu", headers=PT).get_data(as_text=True))
    assert "Nível" in page
    assert "(rating)" not in page and "Nível (rating)" not in page


def test_koziri_pack_size_is_not_under_the_stakes_heading(client: FlaskClient) -> None:
    html = client.get("/tables/new?game=koziri", headers=PT).get_data(as_text=True)
    headed = {
        text_of(h): text_of(body)
        for h, body in re.findall(r'<section class="card">\s*<h2>(.*?)</h2>(.*?)</section>', html, re.S)
    }
    holder = next(h for h, body in headed.items() if "Cartas no baralho" in body)
    assert holder != "Apostas", headed.keys()
    assert "baralho" in holder.lower(), holder
