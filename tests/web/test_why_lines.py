"""The "why this score" lines on the table page add up as written: the sums are drawn as sums
(under a rule), each over the amounts it adds, and the API says which lines are sums."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from .api_support import create_table, record_ok


def _why(html: str) -> list[tuple[str, str, bool]]:
    """(label, amount, is a total) for each line of the first "why this score" list."""
    block = html[html.index('<details class="why">') :]
    block = block[: block.index("</details>")]
    out = []
    for classes, label, amount in re.findall(
        r'<li class="(line[^"]*)"><span>(.*?)</span>(?: <b class="num">(.*?)</b>)?</li>', block
    ):
        out.append((label, amount, "line-total" in classes))
    return out


def test_lift_smoke_shows_the_pot_and_the_winners_gain_as_two_sums(client: FlaskClient) -> None:
    table = create_table(client, game="lift_smoke", players=["Ana", "Bia", "Caio", "Dani"], options={"ante": 2})
    answer = record_ok(client, table, {"winner": "Bia"})
    assert [(line["amount"], line["total"]) for line in answer["breakdown"]] == [
        (8, False),
        (8, True),
        (8, False),
        (-2, False),
        (6, True),
    ]
    html = client.get(f"/t/{table['id']}", headers={"Accept-Language": "pt-BR"}).get_data(as_text=True)
    lines = _why(html)
    assert [total for _, _, total in lines] == [False, True, False, False, True]
    assert lines[1][:2] == ("O bolo", "8") and lines[4][:2] == ("O que Bia ganha", "6")
