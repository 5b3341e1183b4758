"""Jubileu's auction page through the test client: the whole ladder drawn at every call (what the
engine refuses now disabled, never removed, and refused when forged: 422, the engine's sentence,
nothing kept), each bid beside its "da Última" twin, the disabled Passo of a player who holds 3
or 4 aces with the reason beside it, and "change" on the auction after it ended.

Seats in order of play: Ana, Bia, Caio, Dani; Dani deals the first hand, so Ana speaks first.
CSRF is off here (tests/conftest.py); the browser suite (tests/e2e/test_jubileu.py) runs with it on.
"""

from __future__ import annotations

import json
import re
from html import unescape
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.i18n import render_text
from referee.rules.errors import RulesError
from referee.rules.jubileu import ALL_CALLS, Auction, Bid, JubileuOptions, Trump, parse_call

from .test_pages import PLAYERS, hands, new_table


@pytest.fixture(autouse=True)
def english(client: FlaskClient) -> None:
    """The pages in English, so the words asserted here stay put when pt-BR is translated."""
    client.get("/lang/en")


class Flow:
    """One hand's pages, button by button: ``press`` sends the action with the current draft."""

    def __init__(self, client: FlaskClient, table_id: str) -> None:
        self.client, self.table_id = client, table_id
        self.d: str | None = None
        self.html = ""
        self.status = 0

    def press(self, action: str, status: int = 200, **args: str) -> str:
        query = {"action": action, **args, **({"d": self.d} if self.d else {})}
        response = self.client.get(f"/t/{self.table_id}/hand", query_string=query)
        self.status, self.html = response.status_code, response.get_data(as_text=True)
        assert self.status == status, (action, self.status, self.error())
        self.d = unescape(re.search(r'name="d" value="([^"]*)"', self.html).group(1))  # type: ignore[union-attr]
        return self.html

    @property
    def draft(self) -> dict[str, Any]:
        return dict(json.loads(self.d or "{}"))

    def error(self) -> str | None:
        found = re.search(r'class="field-error"[^>]*>(.*?)</', self.html, re.S)
        return unescape(found.group(1)).strip() if found else None

    def ladder(self) -> list[tuple[str, bool]]:
        """The auction's call buttons in page order: (value, disabled)."""
        block = self.html.split('class="ladder"', 1)[1].split("</div>", 1)[0]
        return [
            (unescape(value), " disabled" in attrs)
            for attrs, value in (
                (m.group(0), m.group(1)) for m in re.finditer(r'<button[^>]*value="(call:[^"]*)"[^>]*>', block)
            )
        ]

    def changes(self) -> list[str]:
        """The summary's "change" buttons (their back:<step> values)."""
        summary = self.html.split('class="summary card"', 1)[1].split("</form>", 1)[0]
        return re.findall(r'value="back:([a-z_]+)"', summary)


def engine_legal(calls: list[list[str]], aces: dict[str, int] | None = None) -> list[str]:
    auction = Auction.replay(
        players=PLAYERS,
        dealer="Dani",
        options=JubileuOptions(),
        aces=aces or {},
        calls=[(p, parse_call(c, field="auction")) for p, c in calls],
    )
    return [c.value for c in auction.legal_calls()]


def engine_refuses(calls: list[list[str]], aces: dict[str, int] | None = None) -> str:
    try:
        engine_legal(calls, aces)
    except RulesError as exc:
        return render_text(exc.text)
    raise AssertionError(f"the engine accepts {calls}")


def at_auction(client: FlaskClient, aces: str = "aces:none") -> Flow:
    flow = Flow(client, new_table(client))
    flow.press("ultima:copas")
    flow.press(aces)
    return flow


def test_the_whole_ladder_is_drawn_at_every_call_and_only_the_legal_calls_are_enabled(client: FlaskClient) -> None:
    flow = at_auction(client)
    slugs = [c.value for c in ALL_CALLS]
    for seat, call in enumerate(["solo_sete", "solo_oito_da_ultima", "passo", "solo_dez"]):
        ladder = flow.ladder()
        # Every call, in the same order, for the player to speak, whatever was called before.
        assert [v.rsplit(":", 1)[1] for v, _off in ladder] == slugs
        assert {v.split(":")[1] for v, _off in ladder} == {str(seat)}
        legal = engine_legal(flow.draft.get("calls", []))
        assert [v.rsplit(":", 1)[1] for v, off in ladder if not off] == legal
        flow.press(f"call:{seat}:{call}")
    # Ana's Solo Sete, Bia's Solo Oito da Última, Caio passed, Dani's Solo Dez: Ana speaks again;
    # Solo Dez da Última may overcall it, Miséria (same tier) may not, by default.
    ladder = flow.ladder()
    assert ("call:0:solo_dez_da_ultima", False) in ladder and ("call:0:miseria", True) in ladder


def test_each_bid_sits_beside_its_da_ultima_twin(client: FlaskClient) -> None:
    flow = at_auction(client)
    block = flow.html.split('class="ladder"', 1)[1].split("</form>", 1)[0]
    # The page's order is the ladder's; a twin follows its bid and has no row of its own.
    alone = re.findall(r'class="btn btn-secondary call-alone[^"]*"[^>]*value="call:0:([a-z_]+)"', block)
    assert alone == ["meia_miseria", "jogo_obrigatorio", "miseria", "miseria_aberta", "miseria_aberta_com_coloquio"]
    values = [v.rsplit(":", 1)[1] for v, _off in flow.ladder()]
    for bid in Bid:
        if bid.info.trump is Trump.ULTIMA:
            assert values[values.index(bid.value) - 1] == bid.value.removesuffix("_da_ultima")
            assert bid.value not in alone


@pytest.mark.parametrize(
    "forged",
    [
        "call:1:meia_miseria",  # lower than the standing Solo Oito: disabled on the page
        "call:1:solo_oito",  # the same bid again
        "call:2:solo_nove",  # not Caio's turn
        "call:1:jogo_obrigatorio",  # only a holder of 3 or 4 aces
        "call:1:nonsense",  # not a call at all
    ],
)
def test_a_forged_call_is_refused_with_the_engine_s_sentence(app: Flask, client: FlaskClient, forged: str) -> None:
    flow = at_auction(client)
    flow.press("call:0:solo_oito")
    before = flow.draft["calls"]
    flow.press(forged, status=422)
    player, call = PLAYERS[int(forged.split(":")[1])], forged.rsplit(":", 1)[1]
    assert flow.error() == engine_refuses([*before, [player, call]])
    assert flow.draft["calls"] == before  # nothing kept
    assert ("call:1:passo", False) in flow.ladder()  # still Bia's turn, after Solo Oito
    assert hands(app, flow.table_id) == []


def test_a_forged_save_with_an_illegal_auction_stores_nothing(app: Flask, client: FlaskClient) -> None:
    flow = at_auction(client)
    draft = {**flow.draft, "calls": [["Ana", "solo_oito"], ["Bia", "meia_miseria"], ["Caio", "passo"]]}
    response = client.post(f"/t/{flow.table_id}/hand", data={"d": json.dumps(draft)})
    assert response.status_code == 422
    assert hands(app, flow.table_id) == []


def test_the_player_who_must_bid_sees_why_passo_is_disabled(client: FlaskClient) -> None:
    flow = at_auction(client, aces="aces:1:3")  # Bia holds 3 aces
    assert ("call:0:passo", False) in flow.ladder()
    assert 'aria-describedby="pass-why"' not in flow.html
    flow.press("call:0:passo")
    assert ("call:1:passo", True) in flow.ladder()
    why = engine_refuses([["Ana", "passo"], ["Bia", "passo"]], aces={"Bia": 3})
    assert "Bia holds 3 aces" in why
    note = re.search(r'<p class="ladder-note is-forced" id="pass-why">(.*?)</p>', flow.html, re.S)
    assert note is not None and unescape(note.group(1)).strip() == why
    assert re.search(r'value="call:1:passo"[^>]* disabled aria-disabled="true" aria-describedby="pass-why"', flow.html)
    # Once she has bid Jogo Obrigatório the others may pass as usual.
    flow.press("call:1:jogo_obrigatorio")
    assert ("call:2:passo", False) in flow.ladder()
    assert "is-forced" not in flow.html
    # Forged anyway, her pass is refused with the same sentence.
    flow.press("undo")
    flow.press("call:1:passo", status=422)
    assert flow.error() == why


def solo_sete_preview(flow: Flow) -> None:
    flow.press("call:0:solo_sete")
    flow.press("rest:espadas")
    flow.press("side:9")
    assert "preview-deltas" in flow.html


def test_every_line_of_the_summary_can_be_changed(client: FlaskClient) -> None:
    flow = at_auction(client)
    solo_sete_preview(flow)
    assert flow.changes() == ["ultima", "aces", "auction", "contract", "trump", "tricks"]
    flow = at_auction(client)
    for call in ("call:0:jubileu", "call:1:passo", "call:2:passo", "call:3:passo"):
        flow.press(call)
    for action in ("trump:copas", "called:paus", "partner:2", "side:8"):
        flow.press(action)
    assert flow.changes() == ["ultima", "aces", "auction", "contract", "called", "trump", "partner", "tricks"]


def test_changing_the_auction_reopens_it_at_its_last_bid(client: FlaskClient) -> None:
    flow = at_auction(client)
    for call in ("call:0:solo_sete", "call:1:solo_oito", "call:2:passo", "call:3:passo", "call:0:passo"):
        flow.press(call)
    flow.press("trump:espadas")
    flow.press("side:9")
    assert "preview-deltas" in flow.html
    flow.press("back:auction")
    # Bia's Solo Oito and the passes after it are asked again; Ana's Solo Sete still stands.
    assert flow.draft["calls"] == [["Ana", "solo_sete"]]
    assert ("call:1:solo_oito", False) in flow.ladder() and ("call:1:solo_sete", True) in flow.ladder()
    # What followed from the old contract is asked again for the new one.
    assert (flow.draft.get("trump"), flow.draft.get("declarer_tricks")) == (None, None)
    flow.press("call:1:solo_nove")
    flow.press("rest:ouros")
    assert 'value="side:9"' in flow.html  # the side's tricks again: the declarer changed
    flow.press("side:9")
    assert flow.draft["calls"][1:] == [["Bia", "solo_nove"], ["Caio", "passo"], ["Dani", "passo"], ["Ana", "passo"]]
    assert flow.draft["trump"] == "ouros"


def test_changing_a_one_bid_auction_or_the_contract_starts_it_again(client: FlaskClient) -> None:
    flow = at_auction(client)
    solo_sete_preview(flow)
    flow.press("back:contract")  # the contract came from the auction: it changes there
    assert flow.draft.get("calls", []) == [] and flow.draft.get("trump") is None
    assert ("call:0:solo_sete", False) in flow.ladder()
    # Two taps give the corrected auction back.
    flow.press("call:0:solo_oito")
    flow.press("rest:espadas")
    assert 'value="side:8"' in flow.html


def test_changing_the_auction_keeps_each_player_s_tricks(client: FlaskClient) -> None:
    """Each player's tricks are what happened at the table whatever the contract: kept."""
    flow = at_auction(client)
    flow.press("call:0:solo_sete")
    flow.press("rest:espadas")
    flow.press("tricks", t0="9", t1="2", t2="1", t3="")
    assert "preview-deltas" in flow.html
    flow.press("back:auction")
    flow.press("call:0:solo_oito")
    flow.press("rest:espadas")
    assert "preview-deltas" in flow.html  # straight to the preview: the tricks were kept
    assert flow.draft["tricks"] == {"Ana": 9, "Bia": 2, "Caio": 1, "Dani": 1}


def test_an_all_pass_auction_can_be_changed_too(client: FlaskClient) -> None:
    flow = at_auction(client)
    for seat in range(4):
        flow.press(f"call:{seat}:passo")
    assert "preview-deltas" in flow.html
    assert "auction" in flow.changes()
    flow.press("back:auction")
    assert flow.draft.get("calls", []) == []
    assert ("call:0:passo", False) in flow.ladder()


def _contract_row(html: str) -> str:
    """The summary's Contract row, as text."""
    row = re.search(r"<dt>Contract</dt><dd>(.*?)</dd>", html, re.S)
    assert row is not None, html[:2000]
    return " ".join(
        unescape(
            re.sub(r"<[^>]+>", " ", re.sub(r"<form.*?</form>|<button.*?</button>", "", row.group(1), flags=re.S))
        ).split()
    )


def test_two_meia_miseria_declarers_are_both_named_and_joining_says_so(client: FlaskClient) -> None:
    """Bia, to speak after Ana's Meia Miséria, sees her Meia Miséria button say she joins; with Caio
    joining too, the preview's and the correction's Contract row name both declarers."""
    flow = at_auction(client)
    flow.press("call:0:meia_miseria")
    ladder = flow.html.split('class="ladder"', 1)[1].split("</div>", 1)[0]
    button = re.search(r'value="call:1:meia_miseria"[^>]*>(.*?)</button>', ladder, re.S)
    assert button is not None and unescape(button.group(1)).strip() == "Bia too"
    flow.press("call:2:meia_miseria")
    flow.press("call:1:passo")
    flow.press("call:3:passo")
    flow.press("side:0:1")
    flow.press("side:2:3")
    assert "preview-deltas" in flow.html
    assert _contract_row(flow.html) == "Meia Miséria · Ana and Caio"
    saved = client.post(f"/t/{flow.table_id}/hand", data={"d": flow.d})
    assert saved.status_code in (302, 303), saved.get_data(as_text=True)[:500]
    correction = client.get(f"/t/{flow.table_id}/hand", query_string={"replaces": "1"})
    assert _contract_row(correction.get_data(as_text=True)) == "Meia Miséria · Ana and Caio"


def test_a_meia_miseria_missed_by_two_gives_the_miss_in_its_lines(client: FlaskClient) -> None:
    """Three tricks in a Meia Miséria miss it by two: the extra chip's line says so, not "1 trick
    beyond the first"."""
    flow = at_auction(client)
    for call in ("call:0:meia_miseria", "call:1:passo", "call:2:passo", "call:3:passo"):
        flow.press(call)
    flow.press("side:3")
    text = " ".join(unescape(re.sub(r"<[^>]+>", " ", flow.html)).split())
    assert "Meia Miséria failed with 3 tricks" in text
    assert "Missed by 2 tricks: 1 more (one for each trick missed beyond the first)" in text
    assert "1 trick beyond the first" not in text
