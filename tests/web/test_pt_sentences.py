"""Sentences a Brazilian player reads as written: counts of zero and one, the ace that wins a
Derby race, no "dele" for a player who may be a woman, a Koziri take explained without a hand,
and no "10 instead of 10". Each sentence is rendered in pt-BR, as the page shows it."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from referee.i18n import render_text
from referee.rules import kentucky_derby, koziri_play, quatrilho
from referee.rules.cards import Suit
from referee.rules.settle import Line
from referee.rules.text import NP_, Text
from tests.rules.test_kentucky_derby_race import SOLO, cards

from .api_support import create_table, post_hand, record_ok
from .championship_support import create, manager, register
from .test_pages_injun import new_table as injun_table


def _pt(app: Flask, texts: list[Text]) -> list[str]:
    with app.test_request_context(headers={"Accept-Language": "pt-BR"}):
        return [render_text(t) for t in texts]


def _derby_lines(app: Flask, carried_in: int) -> list[str]:
    players = ("Ana", "Bia", "Caio")
    raw: dict[str, Any] = {
        "bets": {p: {"horse": h, "amount": 1} for p, h in zip(players, ("copas", "ouros", "paus"))},
        "winner": "copas",
        "carried_in": carried_in,
    }
    options = kentucky_derby.DerbyOptions()
    hand = kentucky_derby.parse_hand(raw, players=players, options=options, dealer="Caio")
    lines: tuple[Line, ...] = kentucky_derby.settle(hand, options).lines
    return _pt(app, [line.text for line in lines])


def test_a_derby_pot_names_chips_carried_in_only_when_there_are_some(app: Flask) -> None:
    none = _derby_lines(app, 0)
    assert not any("vinda" in line or "anteriores" in line for line in none)
    one = _derby_lines(app, 1)
    assert "1 ficha que sobrou na mesa de corridas anteriores está no bolo." in one
    assert "3 fichas que sobraram na mesa de corridas anteriores estão no bolo." in _derby_lines(app, 3)
    assert not any("vindas" in line for line in one)


def test_the_ace_wins_the_race_with_a_capital_letter(app: Flask) -> None:
    race = kentucky_derby.replay(cards(*SOLO), kentucky_derby.DerbyOptions())
    said = _pt(app, [note.text for note in race.notes])
    assert said[-1] == "O Ás de copas vence a corrida."
    assert all(line[0].isupper() for line in said)
    level = _pt(
        app,
        [
            Text("%(horses)s are level for first place: a tie-break between them.", horses="copas e paus"),
            Text(
                "The cards ran out: %(horses)s, furthest ahead, wins.",
                "The cards ran out: %(horses)s, level and furthest ahead, share first place.",
                count=1,
                horses="copas",
            ),
        ],
    )
    assert level == [
        "Os Ases de copas e paus empatam no primeiro lugar: há desempate entre eles.",
        "As cartas acabaram: o Ás de copas, mais à frente, vence.",
    ]


def test_koziri_sentences_need_no_pronoun_for_a_player(app: Flask) -> None:
    steps = _pt(
        app,
        [
            Text("%(opponent)s gets the same ranks in his corresponding suits", opponent="Ana"),
            Text("%(dealer)s keeps the cards of his suits he turned up", dealer="Ana"),
            Text("Re-entry for %(name)s: %(chips)s more chips at his table.", name="Ana", chips=100),
            Text("A player out of chips gets %(chips)s more at his table.", chips=100),
            Text(
                "The dealer turns up half the pack and keeps the cards of his own suits; the opponent receives the"
                " same ranks in his matching suits (trump for trump, second for second)."
            ),
        ],
    )
    assert steps[0] == "Ana recebe os mesmos valores nos próprios naipes correspondentes"
    assert steps[2] == "Reentrada de Ana: mais 100 fichas na própria mesa."
    assert not any(" dele" in s or " dela" in s for s in steps)


def test_a_koziri_take_without_a_hand_speaks_of_the_pack(app: Flask) -> None:
    ace = koziri_play.card("A♠")
    verdict, beating = koziri_play.check_answer_in_pack(
        deck=32, top=ace, answer=None, trump=Suit.ESPADAS, other_trump=Suit.OUROS, who="Bia"
    )
    assert verdict.compulsory and beating == ()
    (said,) = _pt(app, [verdict.reason])
    assert said == "Bia tem que pegar a pilha: nada no baralho ganha de Ás de espadas."
    assert "na mão" not in said


def _one_trick_lines(app: Flask, figures: dict[str, int], options: quatrilho.QuatrilhoOptions) -> list[str]:
    raw = {
        "mode": "chamada",
        "called_card": {"rank": "3", "suit": "paus"},
        "declarer": "Ana",
        "partner": "Caio",
        "figures": figures,
        "tricks": {"Ana": 5, "Bia": 1, "Caio": 4, "Dani": 0},
    }
    players = ("Ana", "Bia", "Caio", "Dani")
    hand = quatrilho.parse_hand(raw, players=players, options=options, dealer="Dani")
    return _pt(app, [line.text for line in quatrilho.settle(hand, options).lines])


def test_a_single_trick_at_a_rate_of_10_is_not_10_instead_of_10(app: Flask) -> None:
    flat = quatrilho.QuatrilhoOptions(one_trick="flat_10")
    same = _one_trick_lines(app, {"Ana": 15, "Bia": 5, "Caio": 15, "Dani": 0}, flat)  # 30 figures: 10 points
    assert "Só uma vaza para Bia e Dani; a taxa continua 10." in same
    assert not any("em vez de" in line for line in same)
    other = _one_trick_lines(app, {"Ana": 17, "Bia": 0, "Caio": 18, "Dani": 0}, flat)  # 35 figures: 11 points
    assert "Só uma vaza para Bia e Dani, então a taxa é 10 em vez de 11." in other


def test_sentences_about_a_player_need_no_gendered_word(app: Flask) -> None:
    said = _pt(
        app,
        [
            Text("%(winner)s is the last player holding cards and takes the pot.", winner="Ana"),
            Text("%(name)s ends with %(chips)s chips: record his re-entry, or correct the hands.", name="Ana", chips=0),
            Text("Late entry: he plays from round %(round)s, with no points for the rounds before.", round=3),
            Text("%(name)s is already a member: merge the two instead of renaming.", name="Ana"),
            Text("The auction gives %(contract)s to %(name)s, who must be the declarer.", contract="Solo", name="Ana"),
            Text(
                "%(name)s is already registered, number %(number)s: add a surname to tell them apart.",
                name="Ana",
                number=3,
            ),
            Text("How many tricks did %(name)s and %(partner)s take together?", name="Ana", partner="Bia"),
        ],
    )
    assert said[0] == "Só Ana ainda tem cartas e leva o bolo."
    assert said[1] == "Ana termina com 0 fichas: registre a reentrada de Ana ou corrija as mãos."
    for sentence in said:
        assert not any(
            word in sentence.split()
            for word in ("ele", "dele", "último", "jogador", "declarante", "inscrito", "juntos")
        ), sentence


def test_a_quatrilho_caller_with_one_figure_reads_in_the_singular(app: Flask) -> None:
    players = ("Ana", "Bia", "Caio", "Dani")
    options = quatrilho.QuatrilhoOptions()
    raw = {
        "mode": "chamada",
        "called_card": {"rank": "3", "suit": "paus"},
        "declarer": "Ana",
        "partner": "Caio",
        "figures": {"Ana": 1, "Bia": 10, "Caio": 13, "Dani": 11},
        "tricks": {"Ana": 1, "Bia": 3, "Caio": 3, "Dani": 3},
    }
    hand = quatrilho.parse_hand(raw, players=players, options=options, dealer="Dani")
    said = _pt(app, [line.text for line in quatrilho.settle(hand, options).lines])
    assert any("fez só 1 figura nas próprias vazas" in line for line in said), said
    caller_one = NP_(
        "The caller's own %(count)s figure is part of the side's %(figures)s (all of them when the caller plays alone).",
        "The caller's own %(count)s figures are part of the side's %(figures)s (all of them when the caller plays alone).",
    )
    (one,) = _pt(app, [Text(*caller_one, count=1, figures=0)])
    assert one.startswith("1 figura do monte de quem chamou faz parte") and "sozinho" not in one


def test_chips_on_the_table_are_counted_in_words_from_zero(client: FlaskClient) -> None:
    table = create_table(client, game="lift_smoke", players=["Ana", "Bia", "Caio", "Dani"])
    refused = post_hand(client, table, {"winner": "Bia", "carried_in": 3})
    assert refused.status_code == 422
    message = refused.get_json()["error"]["message"]
    assert message == "Não sobrou nenhuma ficha na mesa das mãos anteriores (foram informadas 3)."
    assert "0 fichas" not in message


def test_a_derby_race_in_the_history_names_the_ace_that_won(client: FlaskClient) -> None:
    table = create_table(client, game="kentucky_derby", players=["Ana", "Bia", "Caio", "Dani"])
    bets = {
        p: {"horse": h, "amount": 1}
        for p, h in zip(("Ana", "Bia", "Caio", "Dani"), ("copas", "copas", "paus", "ouros"))
    }
    record_ok(client, table, {"bets": bets, "winner": "copas"})
    html = client.get(f"/t/{table['id']}", headers={"Accept-Language": "pt-BR"}).get_data(as_text=True)
    contract = re.search(r'<span class="hand-contract">(.*?)</span>\s*(?:<span class="tag|</div>)', html, re.S)
    assert contract is not None
    words = re.sub(r"<[^>]+>", "", contract.group(1)).split()
    assert words[:5] == ["Ás", "de", "♥", "copas", "venceu"], words


def test_a_championship_round_of_one_table_counts_it_in_the_singular(app: Flask) -> None:
    boss = manager(app)
    cid = create(boss)
    register(boss, cid, ["Ana", "Bia", "Caio", "Dani"])
    assert boss.post(f"/c/{cid}/rounds", data={"seed": "sorteio 1"}).status_code == 302
    manage = boss.get(f"/c/{cid}/manage").get_data(as_text=True)
    assert "Rodada 1: 0 de 1 mesa assinada" in manage
    tv = boss.get(f"/c/{cid}/tv").get_data(as_text=True)
    assert "0 de 1 mesa assinada" in tv and "1 mesas" not in tv


def test_labels_about_whoever_called_or_declared_have_no_gender(app: Flask) -> None:
    said = _pt(
        app,
        [
            Text("nobody: the caller plays alone"),
            Text("the caller: plays alone"),
            Text("the declarer: plays alone"),
            Text("The caller's side lost: give the figures in the caller's own pile (fewer than 9 is a mancha)."),
            Text("A member cannot be merged into himself."),
            Text("A duplicate: his tables move to the member chosen here. You confirm on the next page."),
        ],
    )
    assert said[:3] == [
        "ninguém: quem chamou joga sem parceiro",
        "quem chamou: joga sem parceiro",
        "quem declarou: joga sem parceiro",
    ]
    for sentence in said:
        assert not any(word in sentence.replace(".", " ").split() for word in ("sozinho", "dele", "ele", "próprio")), (
            sentence
        )


def test_the_koziri_deal_helper_without_a_table_names_each_seat_once(client: FlaskClient) -> None:
    query = {"dealer_trump": "espadas", "dealer_second": "copas", "opponent_trump": "ouros", "step": "hands"}
    query["c"] = ["Ke", "Qe", "Je", "10e", "Ac", "Qc", "Jc", "10c", "9c", "8c"]
    html = client.get("/koziri/deal", query_string=query, headers={"Accept-Language": "pt-BR"}).get_data(as_text=True)
    text = " ".join(re.sub(r"<[^>]+>", " ", html).split())
    assert "Carteador (carteador)" not in text and "Carteador carteador" not in text
    assert "Adversário (adversário)" not in text and "Adversário adversário" not in text
    assert "Carteador fica com as cartas que virou dos próprios naipes" in text


def test_injun_names_the_poker_betting_in_portuguese(client: FlaskClient) -> None:
    tid = injun_table(client)
    page = " ".join(re.sub(r"<[^>]+>", " ", client.get(f"/t/{tid}/hand").get_data(as_text=True)).split())
    assert "Pôquer" in page and "Poker" not in page
