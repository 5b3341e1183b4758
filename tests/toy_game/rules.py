"""Loser Pays: 3 to 6 players; the hand's loser pays the table's stake to each other player.
The rest is the ``Game`` defaults (each for himself, the deal passes on, the record as read)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Final

from referee.rules.game import Game
from referee.rules.options import OptionSet, OptionSpec, from_spec
from referee.rules.record import DEALER, Player, Record, RecordSpec
from referee.rules.settle import Line, Payment, Settlement
from referee.rules.text import N_, Text

SLUG: Final = "loser_pays"
STAKE: Final = Text(N_("Stake the loser pays each other player"))


@dataclass(frozen=True, kw_only=True)
class LoserPaysOptions(OptionSet):
    stake: int = from_spec()
    specs = (OptionSpec(name="stake", kind="int", default=1, maximum=1000, label=STAKE, help=Text(N_("In chips."))),)


RECORD: Final = RecordSpec(
    game="Loser Pays",
    unknown=N_("A Loser Pays hand has no field called %(name)s."),
    player_counts=(3, 4, 5, 6),
    fields=(DEALER, Player(name="loser", required=N_("Name the loser."), doc="The player who lost the hand.")),
    example={"dealer": "Dani", "loser": "Bia"},
    example_players=("Ana", "Bia", "Caio", "Dani"),
)


@dataclass(frozen=True, kw_only=True)
class LoserPaysHand(Record):
    spec: ClassVar[RecordSpec] = RECORD
    players: tuple[str, ...]
    dealer: str
    loser: str


def settle(hand: LoserPaysHand, options: LoserPaysOptions) -> Settlement:
    others = [p for p in hand.players if p != hand.loser]
    line = Line(text=Text(N_("%(loser)s pays the stake to each other player."), loser=hand.loser), amount=options.stake)
    paid = tuple(Payment(payer=hand.loser, payee=p, amount=options.stake) for p in others if options.stake)
    return Settlement(players=hand.players, payments=paid, lines=(line,))


GAME: Final = Game[LoserPaysOptions, LoserPaysHand](
    slug=SLUG,
    name="Loser Pays",
    options_class=LoserPaysOptions,
    record=RECORD,
    parse=LoserPaysHand.parsed,
    settle=settle,
)
