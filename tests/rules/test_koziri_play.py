"""Koziri at the table: the pack, the deal helper, the answer checker and a game move by move
(the rule text; the rule text's worked examples, cited where used).

The rule text's example hands were images and are missing. The procedure paragraph still
names the dealer's cards of one deal (the K, Q, J and 10 of spades and the A, Q, J, 10, 9, 8 of
hearts, recovered from the opponent's mirror cards "Rei, Dama, Valete e Dez de Ouros ..."); the
"Exemplo prático" only names the cards played. For that one :data:`PRACTICAL` is a deal
reconstructed to fit every sentence of the example (the dealer has five trumps, the 9 and other
hearts above the 8 but none above the king, the 8 and 10 of spades; the opponent the 8 and king
of hearts and the 9 and ace of spades).
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.rules.cards import Suit
from referee.rules.errors import IllegalCall, InconsistentHand, InvalidInput, RulesError, UnknownPlayer
from referee.rules.koziri_play import (
    Card,
    Role,
    SuitChoice,
    beating_cards,
    card,
    check_answer,
    deal,
    deck_cards,
    deck_ranks,
    parse_answer,
    parse_deal,
)
from tests.rules.koziri_game import Play

SUITS = SuitChoice(dealer_trump=Suit.ESPADAS, dealer_second=Suit.COPAS, opponent_trump=Suit.OUROS)
PLAYERS = ("Ana", "Bia")  # Bia deals


def cards(text: str) -> list[Card]:
    return [card(x) for x in text.split()]


def shorts(seq: Any) -> str:
    return " ".join(c.short if c is not None else "take" for c in seq)


# --------------------------------------------------------------------------- the pack


def test_the_three_packs() -> None:
    """20 = A K Q J 10; 24 adds the 9s; 32 = A to 7 (the 8s and the 7s)."""
    assert deck_ranks(20) == ("A", "K", "Q", "J", "10")
    assert deck_ranks(24) == ("A", "K", "Q", "J", "10", "9")
    assert deck_ranks(32) == ("A", "K", "Q", "J", "10", "9", "8", "7")
    assert len(set(deck_cards(32))) == 32
    with pytest.raises(ValueError):
        deck_ranks(28)


def test_rank_order() -> None:
    """A > K > Q > J > 10 > ..."""
    assert [c.strength for c in cards("A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠")] == [7, 6, 5, 4, 3, 2, 1, 0]
    assert str(card("Q♥").label) == "Queen of hearts"


@pytest.mark.parametrize(
    ("raw", "deck", "kind", "field"),
    [
        ({"rank": "9", "suit": "copas"}, 20, InconsistentHand, "x.rank"),
        ({"rank": "7", "suit": "copas"}, 24, InconsistentHand, "x.rank"),
        ({"rank": "2", "suit": "copas"}, 32, InconsistentHand, "x.rank"),
        ({"rank": "B", "suit": "copas"}, 32, InvalidInput, "x.rank"),
        ({"rank": "A", "suit": "hearts"}, 32, InvalidInput, "x.suit"),
        ({"rank": "A"}, 32, InvalidInput, "x"),
        ("A♥", 32, InvalidInput, "x"),
    ],
)
def test_card_shapes(raw: object, deck: int, kind: type[RulesError], field: str) -> None:
    with pytest.raises(kind) as info:
        Card.parse(raw, field="x", deck=deck)
    assert type(info.value) is kind and info.value.field == field


def test_the_suit_choice_cannot_be_broken() -> None:
    assert SUITS.opponent_second is Suit.PAUS
    assert SUITS.suits(Role.OPPONENT) == (Suit.OUROS, Suit.PAUS)
    assert SUITS.owner(Suit.PAUS) is Role.OPPONENT and SUITS.owner(Suit.COPAS) is Role.DEALER
    with pytest.raises(ValueError):
        SuitChoice(dealer_trump=Suit.ESPADAS, dealer_second=Suit.ESPADAS, opponent_trump=Suit.OUROS)
    with pytest.raises(ValueError):
        SuitChoice(dealer_trump=Suit.ESPADAS, dealer_second=Suit.COPAS, opponent_trump=Suit.COPAS)


# --------------------------------------------------------------------------- the deal helper


def test_the_dealing_procedure_example() -> None:
    """The rule text's "Preliminares do jogo": dealer ♠ trump, ♥ second; opponent ♦ trump, ♣
    second; 32 cards, 16 turned up, 10 of them the dealer's. The opponent gets "Rei, Dama, Valete
    e Dez de Ouros e Ás, Dama, Valete, Dez, Nove e Oito de Paus"; then the dealer's suits left in
    the pack go to the opponent and the opponent's suits left to the dealer."""
    d = deal(deck=32, suits=SUITS, turned_up=cards("K♠ Q♠ J♠ 10♠ A♥ Q♥ J♥ 10♥ 9♥ 8♥"))
    assert shorts(d.kept) == "K♠ Q♠ J♠ 10♠ A♥ Q♥ J♥ 10♥ 9♥ 8♥"
    assert shorts(d.matched) == "K♦ Q♦ J♦ 10♦ A♣ Q♣ J♣ 10♣ 9♣ 8♣"
    assert shorts(d.to_opponent) == "A♠ 9♠ 8♠ 7♠ K♥ 7♥"  # "monte 1", the dealer's suits
    assert shorts(d.to_dealer) == "A♦ 9♦ 8♦ 7♦ K♣ 7♣"  # "monte 2", the opponent's suits
    assert shorts(d.dealer_hand) == "K♠ Q♠ J♠ 10♠ A♥ Q♥ J♥ 10♥ 9♥ 8♥ A♦ 9♦ 8♦ 7♦ K♣ 7♣"
    assert shorts(d.opponent_hand) == "K♦ Q♦ J♦ 10♦ A♣ Q♣ J♣ 10♣ 9♣ 8♣ A♠ 9♠ 8♠ 7♠ K♥ 7♥"
    assert len(d.dealer_hand) == len(d.opponent_hand) == 16


def test_the_deal_in_json() -> None:
    d = parse_deal(
        {
            "dealer_trump": "espadas",
            "dealer_second": "copas",
            "opponent_trump": "ouros",
            "turned_up": [{"rank": "A", "suit": "espadas"}],
        },
        deck=20,
    )
    out = d.to_json()
    assert out["opponent_second"] == "paus" and out["deck"] == 20
    assert out["kept"] == [{"rank": "A", "suit": "espadas"}] and out["matched"] == [{"rank": "A", "suit": "ouros"}]
    hands: Any = out["hands"]
    assert len(hands["dealer"]) == len(hands["opponent"]) == 10
    assert hands["opponent"][0] == {"rank": "A", "suit": "ouros"}  # his trump first


@pytest.mark.parametrize("deck", [20, 24, 32])
def test_nothing_of_his_suits_turned_up(deck: int) -> None:
    """Possible: half the pack is exactly the opponent's two suits. Then the opponent gets all
    of the dealer's suits and the dealer all of the opponent's."""
    d = deal(deck=deck, suits=SUITS, turned_up=[])
    assert {c.suit for c in d.dealer_hand} == {Suit.OUROS, Suit.PAUS}
    assert {c.suit for c in d.opponent_hand} == {Suit.ESPADAS, Suit.COPAS}


def test_deal_refusals_point_at_the_card() -> None:
    with pytest.raises(InconsistentHand) as info:
        deal(deck=32, suits=SUITS, turned_up=cards("K♠ 9♦"))
    assert info.value.field == "turned_up[1]" and "opponent's suits" in str(info.value)
    with pytest.raises(InconsistentHand) as info:
        deal(deck=32, suits=SUITS, turned_up=cards("K♠ Q♥ K♠"))
    assert info.value.field == "turned_up[2]" and "twice" in str(info.value)


def test_at_most_half_the_pack() -> None:
    assert len(deal(deck=20, suits=SUITS, turned_up=cards("A♠ K♠ Q♠ J♠ 10♠ A♥ K♥ Q♥ J♥ 10♥")).kept) == 10
    with pytest.raises(InconsistentHand) as info:
        deal(deck=24, suits=SUITS, turned_up=cards("A♠ K♠ Q♠ J♠ 10♠ 9♠ A♥ K♥ Q♥ J♥ 10♥ 9♥ A♠"))
    assert info.value.field == "turned_up[12]"
    with pytest.raises(InconsistentHand) as info:
        deal(deck=20, suits=SUITS, turned_up=cards("A♠ K♠ Q♠ J♠ 10♠ A♥ K♥ Q♥ J♥ 10♥ A♠"))
    assert "twice" in str(info.value)


def test_a_card_outside_the_pack() -> None:
    with pytest.raises(InconsistentHand) as info:
        deal(deck=20, suits=SUITS, turned_up=cards("9♠"))
    assert info.value.field == "turned_up[0]"
    with pytest.raises(InconsistentHand) as info:
        parse_deal(
            {
                "dealer_trump": "espadas",
                "dealer_second": "copas",
                "opponent_trump": "ouros",
                "turned_up": [{"rank": "9", "suit": "espadas"}],
            },
            deck=20,
        )
    assert info.value.field == "turned_up[0].rank"


@pytest.mark.parametrize(
    ("raw", "kind", "field"),
    [
        ({"dealer_trump": "espadas", "dealer_second": "copas", "opponent_trump": "ouros"}, InvalidInput, "turned_up"),
        (
            {"dealer_trump": "espadas", "dealer_second": "copas", "opponent_trump": "ouros", "turned_up": "K♠"},
            InvalidInput,
            "turned_up",
        ),
        (
            {"dealer_trump": "espadas", "dealer_second": "copas", "opponent_trump": "copas", "turned_up": []},
            InconsistentHand,
            "opponent_trump",
        ),
        (
            {"dealer_trump": "espadas", "dealer_second": "espadas", "opponent_trump": "ouros", "turned_up": []},
            InconsistentHand,
            "dealer_second",
        ),
        (
            {
                "dealer_trump": "espadas",
                "dealer_second": "copas",
                "opponent_trump": "ouros",
                "turned_up": [],
                "deck": 32,
            },
            InvalidInput,
            "deck",
        ),
        ([], InvalidInput, None),
    ],
)
def test_deal_helper_shapes(raw: object, kind: type[RulesError], field: str | None) -> None:
    with pytest.raises(kind) as info:
        parse_deal(raw, deck=32)
    assert type(info.value) is kind and info.value.field == field


# --------------------------------------------------------------------------- the answer checker


def judge(top: str, answer: str | None, role: Role = Role.DEALER, hand: str | None = None) -> Any:
    return check_answer(
        top=card(top),
        answer=None if answer is None else card(answer),
        trump=SUITS.trump(role),
        other_trump=SUITS.trump(role.other),
        who="Bia" if role is Role.DEALER else "Ana",
        hand=None if hand is None else cards(hand),
    )


@pytest.mark.parametrize(
    ("top", "answer", "role", "legal", "how", "words"),
    [
        # Rule 1: a higher card of the top card's suit.
        ("8♥", "9♥", Role.DEALER, True, "higher", "higher than the Eight of hearts"),
        ("8♥", "7♥", Role.DEALER, False, None, "lower"),
        # Rule 2: any of one's own trumps on a card of another suit.
        ("A♥", "7♠", Role.DEALER, True, "trump", "one of Bia's trumps"),
        ("A♣", "7♦", Role.OPPONENT, True, "trump", "one of Ana's trumps"),
        # ... but on one's own trump suit only a higher trump (the text: A♠ against the dealer).
        ("A♠", "K♠", Role.DEALER, False, None, "own trump suit"),
        ("9♠", "10♠", Role.DEALER, True, "higher", "higher trump"),
        # The other player's trump is a plain suit: not a trump for me ...
        ("8♥", "A♦", Role.DEALER, False, None, "other player's trump"),
        ("8♣", "A♠", Role.OPPONENT, False, None, "other player's trump"),
        # ... and his trump on the pile is a plain card for me (the example: 9♠ on 8♠).
        ("8♠", "9♠", Role.OPPONENT, True, "higher", "higher than"),
        ("A♠", "7♦", Role.OPPONENT, True, "trump", "plain card for Ana"),
        # Neither higher nor a trump.
        ("8♥", "A♣", Role.DEALER, False, None, "neither a higher hearts nor one of Bia's trumps"),
        ("8♥", "8♥", Role.DEALER, False, None, "already on top"),
    ],
)
def test_answers(top: str, answer: str, role: Role, legal: bool, how: str | None, words: str) -> None:
    verdict = judge(top, answer, role)
    assert (verdict.legal, verdict.how) == (legal, how)
    assert words in str(verdict.reason), str(verdict.reason)


def test_the_texts_example_the_ace_of_the_dealers_trump_must_be_taken() -> None:
    """ "se o adversário do carteador iniciar o jogo descartando um Ás de Espadas, o
    carteador é obrigado a pegá-lo" (the dealer's trump is spades)."""
    hand = "K♠ Q♠ J♠ 10♠ A♥ Q♥ J♥ 10♥ 9♥ 8♥ A♦ 9♦ 8♦ 7♦ K♣ 7♣"
    verdict = judge("A♠", None, Role.DEALER, hand)
    assert verdict.legal and verdict.compulsory and verdict.beating == ()
    assert "must take" in str(verdict.reason)
    assert not judge("A♠", "K♠", Role.DEALER, hand).legal
    assert not judge("A♠", "A♦", Role.DEALER, hand).legal


def test_taking_by_choice_is_allowed() -> None:
    """The text's "pode pegar": taking is always allowed, compulsory only when nothing beats."""
    verdict = judge("8♥", None, Role.DEALER, "9♥ 7♠ 7♣")
    assert verdict.legal and not verdict.compulsory
    assert shorts(verdict.beating) == "9♥ 7♠"
    assert "by choice" in str(verdict.reason) and "the Nine of hearts and the Seven of spades" in str(verdict.reason)
    blind = judge("8♥", None)
    assert blind.legal and not blind.compulsory and blind.beating is None and "always take" in str(blind.reason)


def test_the_answer_must_be_in_the_hand() -> None:
    verdict = judge("8♥", "9♥", Role.DEALER, "10♥ 7♠")
    assert not verdict.legal and "does not hold" in str(verdict.reason)
    assert shorts(verdict.beating) == "10♥ 7♠"
    with pytest.raises(InconsistentHand) as info:
        judge("8♥", None, Role.DEALER, "8♥ 7♠")
    assert info.value.field == "hand"


def test_beating_cards_weakest_first_trumps_last() -> None:
    assert shorts(beating_cards(card("8♥"), cards("A♠ A♥ 9♥ 7♠ A♦"), trump=Suit.ESPADAS)) == "9♥ A♥ 7♠ A♠"


def answer_body(**over: Any) -> dict[str, Any]:
    raw: dict[str, Any] = {
        "dealer_trump": "espadas",
        "dealer_second": "copas",
        "opponent_trump": "ouros",
        "answers": "Bia",
        "top": {"rank": "A", "suit": "espadas"},
        "answer": "take",
    }
    raw.update(over)
    return {k: v for k, v in raw.items() if v is not ...}


def test_the_answer_checker_in_json() -> None:
    verdict = parse_answer(answer_body(hand=[{"rank": "K", "suit": "espadas"}]), players=PLAYERS, dealer="Bia", deck=32)
    assert verdict.to_json() == {
        "legal": True,
        "how": "take",
        "reason": "Bia must take the pile: nothing in the hand beats the Ace of spades.",
        "compulsory": True,
        "beating": [],
    }
    # Ana answers: she is the opponent, so her trump is ♦ and the ♠ ace is a plain card for her.
    verdict = parse_answer(
        answer_body(answers="Ana", answer={"rank": "7", "suit": "ouros"}), players=PLAYERS, dealer="Bia", deck=32
    )
    assert verdict.legal and verdict.how == "trump" and verdict.to_json()["beating"] is None
    # The body may name the dealer: with Ana dealing, Ana's trump is ♠.
    verdict = parse_answer(
        answer_body(dealer="Ana", answers="Ana", answer={"rank": "7", "suit": "ouros"}),
        players=PLAYERS,
        dealer="Bia",
        deck=32,
    )
    assert not verdict.legal


@pytest.mark.parametrize(
    ("over", "kind", "field"),
    [
        ({"answers": ...}, InvalidInput, "answers"),
        ({"answers": "Caio"}, UnknownPlayer, "answers"),
        ({"dealer": "Caio"}, UnknownPlayer, "dealer"),
        ({"top": ...}, InvalidInput, "top"),
        ({"top": {"rank": "8", "suit": "copas"}}, InconsistentHand, "top.rank"),
        ({"answer": ...}, InvalidInput, "answer"),
        ({"answer": "pass"}, InvalidInput, "answer"),
        ({"hand": [{"rank": "K", "suit": "copas"}, {"rank": "K", "suit": "copas"}]}, InconsistentHand, "hand[1]"),
        ({"hand": {"rank": "K", "suit": "copas"}}, InvalidInput, "hand"),
        ({"opponent_trump": "espadas"}, InconsistentHand, "opponent_trump"),
        ({"winner": "Ana"}, InvalidInput, "winner"),
    ],
)
def test_answer_checker_refusals(over: dict[str, Any], kind: type[RulesError], field: str) -> None:
    with pytest.raises(kind) as info:
        parse_answer(answer_body(**over), players=PLAYERS, dealer="Bia", deck=24)
    assert type(info.value) is kind and info.value.field == field
    assert str(info.value).endswith(".")


def test_the_reason_is_rendered_by_the_caller() -> None:
    """The web layer passes its translation; the engine only holds msgids."""
    verdict = judge("8♥", "A♦")
    assert verdict.to_json(lambda t: t.msgid)["reason"] == verdict.reason.msgid
    assert verdict.to_json()["reason"] == str(verdict.reason)


def test_answer_checker_needs_an_object() -> None:
    with pytest.raises(InvalidInput):
        parse_answer("take", players=PLAYERS, dealer="Bia", deck=32)


# --------------------------------------------------------------------------- a game move by move

PRACTICAL = deal(deck=32, suits=SUITS, turned_up=cards("K♠ Q♠ J♠ 10♠ 8♠ Q♥ J♥ 10♥ 9♥ 7♥"))


def test_the_reconstructed_practical_deal() -> None:
    assert shorts(PRACTICAL.dealer_hand) == "K♠ Q♠ J♠ 10♠ 8♠ Q♥ J♥ 10♥ 9♥ 7♥ A♦ 9♦ 7♦ A♣ K♣ 8♣"
    assert shorts(PRACTICAL.opponent_hand) == "K♦ Q♦ J♦ 10♦ 8♦ Q♣ J♣ 10♣ 9♣ 7♣ A♠ 9♠ 7♠ A♥ K♥ 8♥"


def test_the_practical_example() -> None:
    """The rule text, "Exemplo prático": the opponent leads the 8♥; the dealer may play the 9♥, another
    higher heart, one of his five trumps, or take. 9♥; the opponent plays the K♥ (the dealer has
    no higher heart); the dealer his 8♠ (a trump); the opponent the 9♠; the dealer the 10♠; the
    opponent the A♠, which the dealer cannot beat: he takes all seven cards, and the opponent,
    who discarded last, leads again."""
    p = Play(PRACTICAL, leader=Role.OPPONENT, names={Role.DEALER: "Bia", Role.OPPONENT: "Ana"})
    assert p.turn is Role.OPPONENT and p.legal_moves() == list(p.hand(Role.OPPONENT))
    p.play(card("8♥"))
    assert shorts(p.legal_moves()) == "9♥ 10♥ J♥ Q♥ 8♠ 10♠ J♠ Q♠ K♠ take"  # the four options
    p.play(card("9♥"))
    p.play(card("K♥"))
    assert all(c.suit is not Suit.COPAS for c in p.legal_moves() if c is not None)
    p.play(card("8♠"))
    assert shorts(p.legal_moves()) == "9♠ A♠ 8♦ 10♦ J♦ Q♦ K♦ take"  # ♠ is plain for the opponent
    p.play(card("9♠"))
    p.play(card("10♠"))
    p.play(card("A♠"))
    assert p.legal_moves() == [None]  # compulsory
    with pytest.raises(IllegalCall) as info:
        p.play(card("A♦"))
    assert "other player's trump" in str(info.value)
    p.play(None)
    assert p.turn is Role.OPPONENT and p.top is None and p.winner is None
    assert len(p.hand(Role.DEALER)) == 16 - 3 + 7 and len(p.hand(Role.OPPONENT)) == 16 - 4
    assert {card(x) for x in "8♥ 9♥ K♥ 8♠ 9♠ 10♠ A♠".split()} <= set(p.hand(Role.DEALER))


def test_observation_two_all_the_others_trumps() -> None:
    """The rule text, "Observações finais" 2: a player holding every trump of his adversary plays them one
    by one from the lowest; each time the adversary cannot beat it and must take it."""
    p = Play(deal(deck=32, suits=SUITS, turned_up=[]), leader=Role.DEALER)  # the dealer holds every ♦
    for rank in ("7", "8", "9", "10", "J", "Q", "K", "A"):
        assert p.turn is Role.DEALER
        p.play(Card(rank=rank, suit=Suit.OUROS))
        assert p.legal_moves() == [None]
        p.play(None)
    assert {c for c in p.hand(Role.OPPONENT) if c.suit is Suit.OUROS} == {
        c for c in deck_cards(32) if c.suit is Suit.OUROS
    }


def test_moves_that_are_refused() -> None:
    p = Play(PRACTICAL)
    with pytest.raises(IllegalCall) as info:
        p.play(None, field="moves[0]")
    assert info.value.field == "moves[0]" and "no pile" in str(info.value)
    with pytest.raises(IllegalCall) as info:
        p.play(card("K♠"))
    assert "does not hold" in str(info.value) and "the opponent" in str(info.value)
    p.play(card("8♥"))
    with pytest.raises(IllegalCall) as info:
        p.play(card("7♥"))
    assert "lower" in str(info.value)


def endgame(going_out: str) -> Play:
    """Ana (the opponent) holds only the 7♥; Bia (the dealer) the 9♥ and the 7♣."""
    p = Play(PRACTICAL, going_out=going_out)
    p.hands[Role.OPPONENT] = {card("7♥")}
    p.hands[Role.DEALER] = {card("9♥"), card("7♣")}
    return p


def test_going_out_on_the_last_card() -> None:
    """KOZ-2, the literal reading: playing the last card wins at once."""
    p = endgame("last_card")
    p.play(card("7♥"))
    assert p.winner is Role.OPPONENT and p.legal_moves() == []
    with pytest.raises(IllegalCall) as info:
        p.play(None)
    assert "over" in str(info.value)


def test_going_out_unbeaten() -> None:
    """KOZ-2, the alternative: the last card must stand. Beaten, the empty-handed player must
    take; a player wins when the other takes the pile and he has nothing left to lead."""
    p = endgame("unbeaten")
    p.play(card("7♥"))
    assert p.winner is None
    p.play(card("9♥"))
    assert p.legal_moves() == [None]
    p.play(None)
    assert p.turn is Role.DEALER
    p.play(card("7♣"))  # Bia's last card; Ana's hearts do not beat a club and ♣ is not her trump
    assert p.winner is None and p.legal_moves() == [None]
    p.play(None)
    assert p.winner is Role.DEALER
    with pytest.raises(ValueError):
        Play(PRACTICAL, going_out="sudden")
