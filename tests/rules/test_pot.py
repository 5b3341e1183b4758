"""The shared pot mechanics (referee/rules/pot.py): antes, equal splits with the odd chips
carried or handed out in order, and the settlement of a deal whose chips went through a pot,
including chips carried in from the previous deal and chips left for the next one."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.rules.pot import (
    ODD_CHIPS_CARRY,
    ODD_CHIPS_IN_ORDER,
    Pot,
    PotSettlement,
    antes,
    payments_for,
    pot_settlement,
    share_left_over,
    split,
)
from referee.rules.settle import Payment, Settlement

NAMES = ("Ana", "Bia", "Caio", "Dani", "Edu", "Fabi")


def test_antes_put_every_players_chips_in_the_pot() -> None:
    pot = antes(NAMES[:4], 2)
    assert pot.chips == 8 and dict(pot.paid) == {"Ana": 2, "Bia": 2, "Caio": 2, "Dani": 2}


def test_a_pot_carried_in_is_part_of_the_pot_but_nobody_paid_it() -> None:
    pot = antes(NAMES[:3], 1, carried_in=2).add("Ana", 5)
    assert pot.chips == 10 and pot.carried_in == 2 and sum(pot.paid.values()) == 8


def test_a_pot_is_immutable_and_never_negative() -> None:
    pot = Pot()
    assert pot.add("Ana", 3).chips == 3 and pot.chips == 0
    with pytest.raises(ValueError):
        pot.add("Ana", -1)
    with pytest.raises(ValueError):
        antes(NAMES[:2], -1)
    with pytest.raises(ValueError):
        Pot(carried_in=-1)


def test_an_even_split() -> None:
    s = split(12, ["Ana", "Bia", "Caio"])
    assert dict(s.shares) == {"Ana": 4, "Bia": 4, "Caio": 4} and s.carry == 0 and s.each == 4 and s.odd == 0


def test_the_odd_chips_stay_on_the_table_by_default() -> None:
    s = split(11, ["Ana", "Bia", "Caio"])
    assert dict(s.shares) == {"Ana": 3, "Bia": 3, "Caio": 3} and s.carry == 2 and s.odd == 2


def test_the_odd_chips_go_one_each_in_the_order_given() -> None:
    s = split(11, ["Caio", "Ana", "Bia"], odd_chips=ODD_CHIPS_IN_ORDER)
    assert dict(s.shares) == {"Caio": 4, "Ana": 4, "Bia": 3} and s.carry == 0 and s.odd == 2


def test_a_single_winner_takes_everything() -> None:
    s = split(7, ["Ana"])
    assert dict(s.shares) == {"Ana": 7} and s.carry == 0


def test_a_pot_without_winner_stays_whole_on_the_table() -> None:
    """Kentucky Derby's unbacked winner: the whole pot carries to the next race."""
    s = split(9, [])
    assert dict(s.shares) == {} and s.carry == 9


def test_split_refuses_nonsense() -> None:
    with pytest.raises(ValueError):
        split(-1, ["Ana"])
    with pytest.raises(ValueError):
        split(4, ["Ana", "Ana"])
    with pytest.raises(ValueError):
        split(4, ["Ana"], odd_chips="random")


def test_a_settlement_with_an_odd_chip_left_for_the_next_deal() -> None:
    s = pot_settlement(NAMES[:3], paid={"Ana": 3, "Bia": 3, "Caio": 3}, won={"Ana": 4, "Bia": 4}, carried_out=1)
    assert isinstance(s, Settlement)
    assert dict(s.deltas) == {"Ana": 1, "Bia": 1, "Caio": -3}
    assert s.carry == 1 and s.carried_out == 1 and s.carried_in == 0
    assert sum(s.deltas.values()) == -s.carry
    assert [(p.payer, p.payee, p.amount) for p in s.payments] == [("Caio", "Ana", 1), ("Caio", "Bia", 1)]


def test_a_settlement_that_takes_up_chips_carried_in() -> None:
    """The net carry is negative when the deal takes up chips an earlier deal left."""
    s = pot_settlement(NAMES[:2], paid={"Ana": 1, "Bia": 1}, won={"Ana": 3}, carried_in=1)
    assert dict(s.deltas) == {"Ana": 2, "Bia": -1}
    assert s.carry == -1 and s.carried_in == 1 and s.carried_out == 0
    assert sum(s.deltas.values()) + s.carry == 0
    assert [(p.payer, p.payee, p.amount) for p in s.payments] == [("Bia", "Ana", 1)]


def test_chips_carried_in_and_out_in_the_same_deal() -> None:
    s = pot_settlement(
        NAMES[:3], paid={"Ana": 2, "Bia": 2, "Caio": 2}, won={"Ana": 3, "Bia": 3}, carried_in=1, carried_out=1
    )
    assert s.carry == 0 and dict(s.deltas) == {"Ana": 1, "Bia": 1, "Caio": -2}


def test_a_settlement_must_account_for_every_chip() -> None:
    with pytest.raises(ValueError):
        pot_settlement(NAMES[:2], paid={"Ana": 1, "Bia": 1}, won={"Ana": 3})
    with pytest.raises(ValueError):
        pot_settlement(NAMES[:2], paid={"Ana": 1, "Zeca": 1}, won={"Ana": 2})
    with pytest.raises(ValueError):
        PotSettlement(players=("Ana", "Bia"), deltas={"Ana": 1, "Bia": -1}, carried_out=1)
    with pytest.raises(ValueError):
        PotSettlement(players=("Ana", "Bia"), deltas={"Ana": 1}, carried_out=0)


def test_payments_never_go_beyond_a_players_delta() -> None:
    with pytest.raises(ValueError):
        PotSettlement(
            players=("Ana", "Bia"),
            deltas={"Ana": 1, "Bia": -1},
            payments=(Payment(payer="Bia", payee="Ana", amount=2),),
        )
    with pytest.raises(ValueError):
        PotSettlement(
            players=("Ana", "Bia"),
            deltas={"Ana": 1, "Bia": -1},
            payments=(Payment(payer="Ana", payee="Bia", amount=1),),
        )


def test_payments_for_deltas_that_leave_chips_on_the_table() -> None:
    got = payments_for({"Ana": 4, "Bia": -3, "Caio": -3})
    assert [(p.payer, p.payee, p.amount) for p in got] == [("Bia", "Ana", 3), ("Caio", "Ana", 1)]


@given(
    chips=st.integers(0, 500),
    count=st.integers(0, 6),
    odd=st.sampled_from([ODD_CHIPS_CARRY, ODD_CHIPS_IN_ORDER]),
)
def test_a_split_accounts_for_every_chip(chips: int, count: int, odd: str) -> None:
    s = split(chips, NAMES[:count], odd_chips=odd)
    assert sum(s.shares.values()) + s.carry == chips
    if count:
        assert max(s.shares.values()) - min(s.shares.values()) <= 1
        assert s.carry == (chips % count if odd == ODD_CHIPS_CARRY else 0)


@given(
    paid=st.lists(st.integers(0, 50), min_size=2, max_size=6),
    carried_in=st.integers(0, 10),
    data=st.data(),
)
def test_a_pot_settlement_sums_to_minus_the_net_carry(paid: list[int], carried_in: int, data: st.DataObject) -> None:
    players = NAMES[: len(paid)]
    total = sum(paid) + carried_in
    winners = data.draw(st.lists(st.sampled_from(players), unique=True, max_size=len(players)))
    s = split(total, winners, odd_chips=data.draw(st.sampled_from([ODD_CHIPS_CARRY, ODD_CHIPS_IN_ORDER])))
    out = pot_settlement(
        players, paid=dict(zip(players, paid)), won=s.shares, carried_in=carried_in, carried_out=s.carry
    )
    assert sum(out.deltas.values()) + out.carry == 0
    assert out.carry == s.carry - carried_in
    for p in out.payments:
        assert out.deltas[p.payer] < 0 < out.deltas[p.payee]


# --------------------------------------------------------------------------- the end of the night


@given(
    st.lists(st.integers(min_value=-50, max_value=50), min_size=2, max_size=12),
    st.integers(min_value=0, max_value=40),
    st.integers(min_value=0, max_value=11),
)
def test_chips_left_on_the_table_are_shared_back_to_a_zero_sum(nets: list[int], left: int, start: int) -> None:
    names = [f"P{i}" for i in range(len(nets))]
    nets[0] -= sum(nets) + left  # the players are `left` chips short: those are on the table
    balances = dict(zip(names, nets))
    order = names[start % len(names) :] + names[: start % len(names)]
    shared = share_left_over(balances, order)
    assert sum(shared.values()) == 0
    gains = [shared[name] - balances[name] for name in order]
    assert sum(gains) == left and max(gains) - min(gains) <= 1
    assert gains == sorted(gains, reverse=True)  # the odd chips go to the first in order


def test_nothing_on_the_table_changes_nothing_and_a_bad_order_is_refused() -> None:
    assert share_left_over({"Ana": 3, "Bia": -3}, ["Bia", "Ana"]) == {"Ana": 3, "Bia": -3}
    with pytest.raises(ValueError):
        share_left_over({"Ana": 3, "Bia": -3}, ["Ana"])
    with pytest.raises(ValueError):
        share_left_over({"Ana": 3, "Bia": -2}, ["Ana", "Bia"])  # more won than put in
