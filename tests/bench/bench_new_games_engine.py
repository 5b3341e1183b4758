"""The newer games through the pure engines: hands judged and settled per second, and what
the guided pages ask of the engine on every tap (Injun's legal actions after each action, a
Kentucky Derby race replayed after each card). No Flask, no DB.

`.venv/bin/python -m tests.bench.bench_new_games_engine`. Prints figures; never asserts a timing.
"""

from __future__ import annotations

import time

from referee.rules import injun, kentucky_derby
from tests.rules.test_kentucky_derby_race import BOTH_PAUS, SOLO, cards

from ._common import figure, machine
from .bench_engine import engine_figures

P2, P3, P4 = ("Ana", "Bia"), ("Ana", "Bia", "Caio"), ("Ana", "Bia", "Caio", "Dani")
BETS = {p: {"horse": h, "amount": 1} for p, h in zip(P4, ["copas", "ouros", "espadas", "paus"])}
KOZIRI = {"dealer": "Bia", "dealer_trump": "espadas", "dealer_second": "copas", "opponent_trump": "ouros"}
#: the rule text's betting (20, 22, 27, called), a tie (an equal bet closes) and a hand everybody drops.
INJUN = {
    "text": {
        "dealer": "Dani",
        "actions": [["Ana", {"bet": 20}], ["Bia", {"bet": 22}], ["Caio", {"bet": 27}], ["Dani", {"bet": 27}]],
        "cards": {"Ana": "K", "Bia": "5", "Caio": "Q", "Dani": "3"},
    },
    "tie": {
        "dealer": "Dani",
        "actions": [["Ana", {"bet": 2}], ["Bia", {"bet": 2}]],
        "cards": {"Ana": "A", "Bia": "A", "Caio": "K", "Dani": "Q"},
    },
    "all drop": {"dealer": "Dani", "actions": [["Ana", "drop"], ["Bia", "drop"], ["Caio", "drop"]]},
}
DERBY = {
    "solo": {"dealer": "Dani", "pingo": 1, "bets": BETS, "cards": cards(*SOLO)},
    "tie-break": {"dealer": "Dani", "pingo": 1, "bets": BETS, "cards": cards(*BOTH_PAUS, "9♥ 9♠")},
}
GAMES = {
    "koziri": (
        P2,
        {"won by the dealer": {**KOZIRI, "winner": "Bia"}, "won by the opponent": {**KOZIRI, "winner": "Ana"}},
    ),
    "injun": (P4, INJUN),
    "kentucky_derby": (P4, DERBY),
    "lift_smoke": (P4, {"hand": {"dealer": "Dani", "ante": 1, "winner": "Bia", "out_order": ["Caio", "Ana", "Dani"]}}),
    "el_gato": (P4, {"hand": {"dealer": "Dani", "loser": "Caio"}}),
    "relogio": (
        ("Ana",),
        {
            "relogio": {"dealer": "Ana", "game": "relogio", "won": True},
            "real": {"dealer": "Ana", "game": "relogio_real", "sequences": 3},
        },
    ),
    "cachorro": (("Ana",), {"cachorro": {"dealer": "Ana", "game": "cachorro", "won": True, "round": 2}}),
}


def _per_tap(label: str, taps: int, work: object) -> None:
    """Time ``work()`` (one page's worth of engine calls, ``taps`` of them) for a second."""
    assert callable(work)
    work()
    runs, started = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - started) < 1.0:
        work()
        runs += 1
    figure(f"{label}: engine time per tap", elapsed / (runs * taps) * 1e6, "us", "(none: track)", None)


def main() -> None:
    machine()
    for game, (players, records) in GAMES.items():
        print(f"  {game}")
        engine_figures(game, players, list(records.values()), list(records), f"{game} engine")
    actions = INJUN["text"]["actions"]

    def injun_page() -> None:  # the betting page asks what is legal after every action
        for i in range(len(actions) + 1):
            injun.legal_actions(actions[:i], players=P4, dealer="Dani")

    _per_tap("injun betting page", len(actions) + 1, injun_page)
    race = DERBY["tie-break"]["cards"]
    options = kentucky_derby.DerbyOptions()

    def derby_page() -> None:  # the race page replays the race after every card
        for i in range(1, len(race) + 1):
            kentucky_derby.replay(race[:i], options)

    _per_tap(f"derby race page ({len(race)} cards)", len(race), derby_page)


if __name__ == "__main__":
    main()
