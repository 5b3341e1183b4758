"""A game's kind: the one answer to every question the shared pages, the league, the ratings
and a night's settle-up ask of a game beyond its own rules.

Ten games come in five kinds: played for payments (most), payments with a pot that can stay on
the table for the next deal (Injun, Kentucky Derby, Lift Smoke), payments ranked by how often a
player lost (El Gato, often played for nothing), a match between fixed teams scored in points
toward a target (Samba), and a patience (one player, nothing paid). A game declares its kind
once (``Game(kind=...)``); the modules outside a game's own ask its kind, never a game's slug
or a loose flag, so a new game of a known kind needs nothing of them, and a new kind is one
more :class:`Kind` here whose answers the shared code already reads.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal, Protocol

Board = Literal["payments", "match", "patience"]
Ranking = Literal["net", "matches", "patience", "losses"]
Rating = Literal["hands", "matches"]


class Ranked(Protocol):
    """What the league knows of a member in one game, for ranking him (league.Row)."""

    @property
    def name(self) -> str: ...
    @property
    def member_id(self) -> int: ...
    @property
    def hands(self) -> int: ...
    @property
    def net(self) -> int: ...
    @property
    def won(self) -> int: ...
    @property
    def average(self) -> float: ...
    @property
    def loss_rate(self) -> float: ...
    @property
    def win_rate(self) -> float: ...


RankKey = tuple[float | int | str, ...]


def _by_net(r: Ranked) -> RankKey:
    return (-r.net, -r.average, r.hands, r.name.casefold(), r.member_id)


def _by_matches(r: Ranked) -> RankKey:
    return (-r.won, -r.net, r.name.casefold(), r.member_id)


def _by_patience(r: Ranked) -> RankKey:
    return (-r.won, -r.win_rate, r.name.casefold(), r.member_id)


def _by_losses(r: Ranked) -> RankKey:
    return (r.loss_rate, -r.hands, -r.net, r.name.casefold(), r.member_id)


_RANK_KEYS: Final[dict[Ranking, Callable[[Ranked], RankKey]]] = {
    "net": _by_net,
    "matches": _by_matches,
    "patience": _by_patience,
    "losses": _by_losses,
}


@dataclass(frozen=True)
class Kind:
    """What differs between kinds of game, each answer named for the question it settles."""

    #: For messages and the documentation: payments, pot, losses, match or patience.
    name: str
    #: The table page's scoreboard: who pays whom, the match standing, or games won per patience.
    board: Board
    #: How the league ranks a member in this game (see :meth:`rank_key`): net money, matches
    #: won, patience games won, or hands lost.
    ranked_by: Ranking
    #: What feeds a rating update: every hand, or every finished match between the teams.
    rated_by: Rating
    #: The table ends at its settle-up page and a night's list of tables shows it (a match
    #: ends at its scoreboard and settles nothing).
    settle_up: bool = True
    #: One player at the table: no dealer, no order of play, nobody to pay.
    solo: bool = False
    #: Teams of the record score together, the pages count matches and points (not tables and
    #: money), and a finished match can have a rematch.
    points_match: bool = False
    #: A pot can stay on the table for the next deal: the hand record takes ``carried_in``,
    #: which the ledger fills in, and the pages show the chips left on the table.
    carries_pot: bool = False

    @property
    def board_template(self) -> str:
        """The table page's scoreboard partial for this kind, which every page showing the
        scoreboard includes (``templates/tables/_board_<board>.html``)."""
        return f"tables/_board_{self.board}.html"

    @property
    def counts_wins(self) -> bool:
        """Its figure is games won (per patience), read from the hands, not money from the seats:
        the scoreboard, the league's standings and a player's page show wins and a win rate."""
        return self.ranked_by == "patience"

    @property
    def counts_losses(self) -> bool:
        """The league counts each member's hands lost (read from the records) and ranks by them."""
        return self.ranked_by == "losses"

    @property
    def rates_matches(self) -> bool:
        """A rating moves once per finished match between the teams, not once per hand."""
        return self.rated_by == "matches"

    def rank_key(self, row: Ranked) -> RankKey:
        """The league's stated tie-break order for this kind (ascending)."""
        return _RANK_KEYS[self.ranked_by](row)


PAYMENTS: Final = Kind("payments", board="payments", ranked_by="net", rated_by="hands")
POT: Final = Kind("pot", board="payments", ranked_by="net", rated_by="hands", carries_pot=True)
LOSSES: Final = Kind("losses", board="payments", ranked_by="losses", rated_by="hands")
MATCH: Final = Kind("match", board="match", ranked_by="matches", rated_by="matches", settle_up=False, points_match=True)
PATIENCE: Final = Kind("patience", board="patience", ranked_by="patience", rated_by="hands", solo=True)

KINDS: Final = (PAYMENTS, POT, LOSSES, MATCH, PATIENCE)
