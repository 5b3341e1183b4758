"""Right at a glance: the contract row names every declarer and the called card by its name, the
preview says what each player pays or receives (net, once), the history says who recorded a hand
by the phone's name and role (never a device code), a revoked phone is told so in words, and the
engine's and the settle-up's sentences read as a player would write them."""

from __future__ import annotations

import json
import re
from html import unescape
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee import ledger
from referee.i18n import render_text
from referee.rules.text import NP_, Text

from .api_support import API, EXAMPLE_RECORD, PLAYERS, create_table, post_hand, record_ok
from .test_api_quatrilho import EXAMPLE as QUATRILHO_EXAMPLE
from .test_pages import draft_for_solo, new_table

PT = {"Accept-Language": "pt-BR"}


def contract_of(html: str, number: int) -> str:
    """The contract row of hand ``number``, as text, up to what was made (" — 9 tricks, made",
    which tests/web/test_history_lines.py reads)."""
    found = re.search(
        rf'id="hand-{number}".*?class="hand-contract">(.*?)</span>\s*(?:<span class="tag|</div>)', html, re.S
    )
    assert found is not None, html[:300]
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split()).split(" — ")[0]


def why_of(html: str, number: int) -> str:
    found = re.search(rf'id="hand-{number}".*?<details class="why">(.*?)</details>', html, re.S)
    assert found is not None
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split())


# --------------------------------------------------------------------------- the contract row


def test_the_contract_row_names_both_meia_miseria_declarers(client: FlaskClient) -> None:
    t = create_table(client)
    record = {
        "ultima": "copas",
        "auction": [["Ana", "meia_miseria"], ["Bia", "passo"], ["Caio", "meia_miseria"], ["Dani", "passo"]],
        "tricks": {"Ana": 1, "Bia": 6, "Caio": 1, "Dani": 5},
    }
    record_ok(client, t, record)
    row = contract_of(client.get(f"/t/{t['id']}", headers=PT).get_data(as_text=True), 1)
    assert row == "Meia Miséria · Ana e Caio"


def test_the_contract_row_names_the_called_card(client: FlaskClient) -> None:
    jubileu = {
        "dealer": "Dani",
        "ultima": "ouros",
        "auction": [["Ana", "jubileu"], ["Bia", "passo"], ["Caio", "passo"], ["Dani", "passo"]],
        "trump": "copas",
        "called": "espadas",
        "partner": "Caio",
        "tricks": {"Ana": 4, "Bia": 3, "Caio": 4, "Dani": 2},
    }
    for record, want in (
        # Jogo Obrigatório: Caio holds three aces, so he calls the fourth (the ace of paus).
        (EXAMPLE_RECORD, "Jogo Obrigatório ♠ · Caio + Bia (Ás de paus)"),
        # With four aces he calls a king.
        ({**EXAMPLE_RECORD, "aces": {"Caio": 4}}, "Jogo Obrigatório ♠ · Caio + Bia (Rei de paus)"),
        # A Jubileu's partner is called by an ace.
        (jubileu, "Ana + Caio (Ás de espadas)"),
    ):
        t = create_table(client)
        record_ok(client, t, record)
        html = client.get(f"/t/{t['id']}/history", headers=PT).get_data(as_text=True)
        assert contract_of(html, 1).endswith(want), contract_of(html, 1)


def test_quatrilho_names_the_called_card_on_the_row_and_the_flow(client: FlaskClient) -> None:
    answer = client.post(f"{API}/tables", json={"game": "quatrilho", "players": PLAYERS})
    t = answer.get_json()
    record_ok(client, t, {**QUATRILHO_EXAMPLE, "called_card": {"rank": "12", "suit": "ouros"}})
    html = client.get(f"/t/{t['id']}", headers=PT).get_data(as_text=True)
    assert contract_of(html, 1).endswith("Ana + Caio · ♦ Rei de ouros")
    client.set_cookie("lang", "en")
    english = client.get(f"/t/{t['id']}").get_data(as_text=True)
    assert contract_of(english, 1).endswith("♦ King of diamonds")


@pytest.mark.parametrize(
    ("rank", "suit", "french", "pt", "en"),
    [
        ("1", "copas", False, "Ás de copas", "Ace of hearts"),
        ("12", "ouros", False, "Rei de ouros", "King of diamonds"),
        ("3", "ouros", False, "Três de ouros", "Three of diamonds"),
        ("10", "espadas", False, "Dama de espadas", "Queen of spades"),
        ("10", "espadas", True, "Dez de espadas", "Ten of spades"),
        ("K", "paus", True, "Rei de paus", "King of clubs"),
    ],
)
def test_a_card_by_name(app: Flask, rank: str, suit: str, french: bool, pt: str, en: str) -> None:
    from referee.views import labels

    for lang, want in (("pt_BR", pt), ("en", en)):
        with app.test_request_context("/", headers={"Cookie": f"lang={lang}"}):  # as referee.i18n reads it
            assert labels.card(rank, suit, french=french) == want


def test_a_forged_card_is_shown_as_it_came(app: Flask) -> None:
    from referee.views import labels

    with app.test_request_context("/"):
        assert labels.card("99", "copas") == "99 copas"
        assert labels.card("12", "swords") == "12 swords"
        assert labels.card("K", "paus") == "K paus"  # not a Spanish rank


# --------------------------------------------------------------------------- the preview


def test_the_preview_says_each_player_s_net_once(client: FlaskClient) -> None:
    table_id = new_table(client)
    draft = draft_for_solo(client, table_id)
    html = unescape(client.get(f"/t/{table_id}/hand", query_string={"d": draft}, headers=PT).get_data(as_text=True))
    rows = re.findall(r'<li><span class="who">(\w+)</span>(.*?)</li>', html.split('class="preview-deltas"', 1)[1])
    said = {name: " ".join(re.sub(r"<[^>]+>", " ", rest).split()) for name, rest in rows}
    # Solo Sete made by Ana (the first speaker) with 9 tricks: 4 from each of the three others.
    payers = [name for name in said if name != "Ana"]
    assert said["Ana"] == "+12 recebe 12 fichas"
    assert all(said[name] == "−4 paga 4 fichas" for name in payers), said
    # One line per player, not one per pair: no "X paga 4 a Y".
    assert not re.search(r"paga \d+ a ", html)


def test_the_net_in_words_counts_in_the_game_s_unit(app: Flask) -> None:
    from referee.views import labels

    with app.test_request_context("/"):
        assert labels.net("jubileu", -1) == "paga 1 ficha"
        assert labels.net("jubileu", 2) == "recebe 2 fichas"
        assert labels.net("jubileu", 0) == ""  # left even: the 0 says it
        assert labels.net("quatrilho", -1) == "paga 1 unidade"
        assert labels.net("quatrilho", 7) == "recebe 7 unidades"


# --------------------------------------------------------------------------- who recorded


def _scorer(app: Flask, owner: FlaskClient, table_id: str, label: str) -> FlaskClient:
    """A phone that joined through a scoring link named ``label`` (maybe empty)."""
    page = owner.post(f"/t/{table_id}/share/link", data={"label": label}).get_data(as_text=True)
    found = re.search(r"data-scoring-link>([^<]+)<", page)
    assert found
    token = unescape(found.group(1)).strip().rsplit("/j/", 1)[1]
    phone = app.test_client()
    assert phone.get(f"/j/{token}").status_code == 302
    return phone


def _all_pass(phone: FlaskClient, table_id: str, n: int) -> None:
    form = {"d": json.dumps({"ultima": "ouros", "n": n, "key": f"k{n}"}), "all_pass": "1"}
    assert phone.post(f"/t/{table_id}/hand/all-pass", data=form).status_code == 302


def test_who_recorded_a_hand_reads_as_a_role_and_a_phone(app: Flask, client: FlaskClient) -> None:
    table_id = new_table(client)
    bia = _scorer(app, client, table_id, "Bia")
    nameless = _scorer(app, client, table_id, "")
    _all_pass(bia, table_id, 1)
    _all_pass(nameless, table_id, 2)
    _all_pass(client, table_id, 3)
    watcher = app.test_client()
    seen_by_watcher = watcher.get(f"/t/{table_id}/history").get_data(as_text=True)
    assert "anotada pelo marcador: celular de Bia" in why_of(seen_by_watcher, 1)
    assert "anotada pelo marcador: outro celular" in why_of(seen_by_watcher, 2)
    assert "anotada pelo dono" in why_of(seen_by_watcher, 3)
    # The phone that recorded it reads "this phone"; the owner reads his own hand the same way.
    assert "anotada pelo marcador: este celular" in why_of(
        nameless.get(f"/t/{table_id}/history").get_data(as_text=True), 2
    )
    assert "anotada pelo dono: este celular" in why_of(client.get(f"/t/{table_id}/history").get_data(as_text=True), 3)
    # A named scorer's own phone reads "this phone" too, never its own name as another's.
    own = why_of(bia.get(f"/t/{table_id}/history").get_data(as_text=True), 1)
    assert "anotada pelo marcador: este celular" in own and "celular de Bia" not in own
    # Never a device id or an access number.
    with app.app_context():
        codes = [h.created_by for h in ledger.all_hands(ledger.get_table(table_id))]
    devices = [code.rsplit("@", 1)[1] for code in codes]
    assert all(re.fullmatch(r"[0-9a-f]{6}", d) for d in devices)
    for html in (seen_by_watcher, client.get(f"/t/{table_id}").get_data(as_text=True)):
        assert not any(d in html for d in devices)
        assert "acesso 1" not in html and "acesso 2" not in html


def test_reading_the_history_gives_a_watcher_no_phone_id(app: Flask, client: FlaskClient) -> None:
    table_id = new_table(client)
    watcher = app.test_client()
    watcher.get(f"/t/{table_id}/history")
    with watcher.session_transaction() as session:
        assert "device" not in session


# --------------------------------------------------------------------------- a revoked phone


def test_a_revoked_phone_is_told_in_words_and_shown_what_to_do(app: Flask, client: FlaskClient) -> None:
    table_id = new_table(client)
    bia = _scorer(app, client, table_id, "Bia")
    with app.app_context():
        from referee import access

        bia_access = next(a.id for a in access.accesses(ledger.get_table(table_id)) if a.label == "Bia")
    assert client.post(f"/t/{table_id}/access/{bia_access}/revoke").status_code == 302
    for path in (f"/t/{table_id}", f"/t/{table_id}/hand"):
        response = bia.get(path)
        assert response.status_code == 403
        page = unescape(response.get_data(as_text=True))
        assert "O acesso deste celular foi cancelado pelo dono da mesa." in page
        assert "peça ao dono da mesa um novo código de entrada" in page
        assert f'href="/w/{table_id}"' in page and 'href="/join"' in page
        assert "403" not in re.sub(r"<[^>]+>", "", page.split("<main", 1)[1])  # no error code shown
    # Nothing is stored by a revoked phone; its read-only view still opens.
    form = {"d": '{"ultima":"ouros","n":1,"key":"k1"}', "all_pass": "1"}
    assert bia.post(f"/t/{table_id}/hand/all-pass", data=form).status_code == 403
    assert bia.get(f"/w/{table_id}").status_code == 200
    with app.app_context():
        assert ledger.next_number(ledger.get_table(table_id)) == 1
    # A phone that never scored here is not told it was revoked.
    stranger = app.test_client().get(f"/t/{table_id}/hand")
    assert stranger.status_code == 401 and "cancelado" not in stranger.get_data(as_text=True)


def test_a_revoked_token_gets_the_api_error_with_that_sentence(client: FlaskClient) -> None:
    t = create_table(client)
    made = client.post(f"/t/{t['id']}/scorer", data={"token": t["token"]})
    assert made.status_code in (302, 200)
    page = client.post(f"/t/{t['id']}/share/link", data={"label": "Bia"}).get_data(as_text=True)
    found = re.search(r"data-scoring-link>([^<]+)<", page)
    assert found
    token = unescape(found.group(1)).strip().rsplit("/j/", 1)[1]
    access_row = re.search(r"/access/(\d+)/revoke", client.get(f"/t/{t['id']}/share").get_data(as_text=True))
    assert access_row
    assert client.post(f"/t/{t['id']}/access/{access_row.group(1)}/revoke").status_code == 302
    response = post_hand(client, t, EXAMPLE_RECORD, token=token)
    assert response.status_code == 401
    error = response.get_json()["error"]
    assert error == {"code": "unauthorized", "message": "O acesso deste celular foi cancelado pelo dono da mesa."}
    # A token that never worked keeps the usual sentence.
    other = post_hand(client, t, EXAMPLE_RECORD, token="not-a-token").get_json()["error"]
    assert other["code"] == "unauthorized" and "cancelado" not in other["message"]


# --------------------------------------------------------------------------- wording leftovers


def test_the_settle_summary_names_an_unnamed_table_s_game_once(client: FlaskClient) -> None:
    unnamed = new_table(client, name="")
    html = unescape(client.get(f"/t/{unnamed}/settle", headers=PT).get_data(as_text=True))
    assert "Jubileu (Jubileu)" not in html
    named = new_table(client, name="Sexta no clube")
    html = unescape(client.get(f"/t/{named}/settle", headers=PT).get_data(as_text=True))
    assert "Sexta no clube (Jubileu)" in html


@pytest.mark.parametrize(
    ("game", "players", "options", "label"),
    [
        ("koziri", ["Ana", "Bia"], {"deck": 30}, "Cartas no baralho"),
        ("samba", ["Ana", "Bia", "Caio", "Dani"], {"top_min_meld": 155}, None),
    ],
)
def test_koziri_and_samba_name_an_option_by_its_label(
    client: FlaskClient, game: str, players: list[str], options: dict[str, Any], label: str | None
) -> None:
    from referee.rules import get_game

    spec = next(s for s in get_game(game).option_specs if s.name == next(iter(options)))
    with client.application.test_request_context("/"):
        wanted = render_text(spec.label)
    assert label is None or wanted == label
    response = client.post(f"{API}/tables", json={"game": game, "players": players, "options": options})
    assert response.status_code == 400
    message = response.get_json()["error"]["message"]
    assert f"“{wanted}”" in message, message
    assert not message.startswith("Opção deck") and not message.startswith("Opção top_min_meld")


@pytest.mark.parametrize(
    ("singular", "plural", "params", "one", "two"),
    [
        (
            "%(names)s tie with %(rank)s and share it: %(count)s chip each.",
            "%(names)s tie with %(rank)s and share it: %(count)s chips each.",
            {"names": "Ana e Bia", "rank": "A"},
            "1 ficha para cada um",
            "2 fichas para cada um",
        ),
        (
            "%(pot)s: %(count)s chip to %(name)s, without a showdown.",
            "%(pot)s: %(count)s chips to %(name)s, without a showdown.",
            {"pot": "O pote", "name": "Ana"},
            "1 ficha para Ana",
            "2 fichas para Ana",
        ),
        (
            "%(pot)s: %(count)s chip; cards shown: %(cards)s.",
            "%(pot)s: %(count)s chips; cards shown: %(cards)s.",
            {"pot": "O pote", "cards": "Ana K"},
            "1 ficha;",
            "2 fichas;",
        ),
        (
            "Nobody backed %(horses)s: the %(count)s chip stays on the table for the next race.",
            "Nobody backed %(horses)s: the %(count)s chips stay on the table for the next race.",
            {"horses": "copas"},
            "1 ficha fica na mesa",
            "2 fichas ficam na mesa",
        ),
        (
            "%(names)s backed %(horses)s and share %(count)s chip in proportion to their bets.",
            "%(names)s backed %(horses)s and share %(count)s chips in proportion to their bets.",
            {"names": "Ana e Bia", "horses": "copas"},
            "dividem 1 ficha",
            "dividem 2 fichas",
        ),
        (
            "%(kind)s won by %(name)s with %(count)s figure.",
            "%(kind)s won by %(name)s with %(count)s figures.",
            {"kind": "Solo preto", "name": "Ana"},
            "ganhou com 1 figura.",
            "ganhou com 2 figuras.",
        ),
        (
            "Normal rate from the soloist's %(count)s figure: %(points)s.",
            "Normal rate from the soloist's %(count)s figures: %(points)s.",
            {"points": 0},
            "por 1 figura do solante",
            "pelas 2 figuras do solante",
        ),
    ],
)
def test_engine_sentences_with_a_count_agree_with_it(
    app: Flask, singular: str, plural: str, params: dict[str, Any], one: str, two: str
) -> None:
    with app.test_request_context("/"):
        assert one in render_text(Text(*NP_(singular, plural), count=1, **params))
        assert two in render_text(Text(*NP_(singular, plural), count=2, **params))
