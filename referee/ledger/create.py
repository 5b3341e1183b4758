"""Making a table: the players in order of play, the first dealer, the name, the language and
the house rules, each checked with a sentence; and a rematch, a new match at the same table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.exc import IntegrityError

from referee import access, inputs, members
from referee.db import db
from referee.models import Seat, Table, utcnow
from referee.rules import get_game
from referee.rules.errors import InvalidInput, RulesError
from referee.rules.text import N_, Text

from .cleaning import clean_name, clean_title
from .clock import duration as clock_duration
from .errors import Conflict
from .state import current_dealer, end_write, lock_for_write, match_over, new_state
from .tables import LOCALES, players_of, rematch_of, teams_of


def create_table(
    *,
    game: object,
    players: object,
    dealer: object = None,
    name: object = None,
    options: object = None,
    locale: object = None,
    teams: object = None,
    follows: str | None = None,
    two_key: object = False,
    duration: object = None,
    table_id: str | None = None,
    member_names: Sequence[str] | None = None,
    commit: bool = True,
) -> tuple[Table, str]:
    """Validate and store a new table; answers the table and its scorer token (shown once).

    ``teams`` is for team games (Samba): the game checks them and fills in its defaults.
    ``follows`` names the table this one is a rematch of; ``duration`` is the time the players
    agreed to play, in minutes (the session clock), or None.

    An import (referee.exports) rebuilds a table under its old ``table_id``, with its seats'
    ``member_names`` (else each seat's name finds its member), and ``commit=False`` to store
    many tables in one transaction."""
    rules = get_game(game)
    names = _player_names(rules, players)
    first_dealer = _first_dealer(names, dealer)
    title = clean_title(name)
    language = table_language(locale)
    if not isinstance(two_key, bool):
        raise InvalidInput(Text(N_("two_key must be true or false.")), field="two_key")
    length = clock_duration(duration)
    parsed = rules.parse_options(options)
    team_of = {name: i for i, team in enumerate(rules.seat_teams(names, teams, parsed)) for name in team}
    token = access.new_token()
    table = Table(
        id=table_id or access.new_table_id(),
        game=rules.slug,
        name=title,
        options=rules.options_json(parsed),
        locale=language,
        scorer_token_hash=access.hash_secret(token),
        first_dealer=first_dealer,
        state=new_state(
            balances=dict.fromkeys(names, 0),
            next_number=1,
            next_dealer=names[first_dealer],
            played=dict.fromkeys(names, 0),
            live=0,
            places=0,
        ),
        version=0,
        follows=follows,
        two_key=two_key,
        ends_at=utcnow() + length if length else None,
    )
    people = members.resolve(names if member_names is None else list(member_names))
    table.seats = [Seat(position=i, name=n, team=team_of[n], member_id=people[i].id) for i, n in enumerate(names)]
    db.session.add(table)
    end_write(commit)
    return table, token


def _player_names(rules: Any, players: object) -> list[str]:
    """The players' names in order of play: a list, as many as the game is played by, no two
    alike (whatever the case)."""
    if not isinstance(players, Sequence) or isinstance(players, str):
        raise InvalidInput(Text(N_("Players must be a list of names in order of play.")), field="players")
    names = [clean_name(p, field=f"players[{i}]") for i, p in enumerate(players)]
    rules.check_table(names)  # the sentence every game uses, whether seating or judging a record
    for i in repeated_names(names)[:1]:
        raise RulesError(repeated_name(names[i]), field=f"players[{i}]")
    return names


def repeated_names(names: Sequence[str]) -> list[int]:
    """The seats whose name an earlier seat already has, whatever the case ("" is no name). The
    new-table form marks each of them; the API refuses the first."""
    folded = [n.casefold() for n in names]
    return [i for i, n in enumerate(folded) if n and n in folded[:i]]


def repeated_name(name: str) -> Text:
    return Text(N_("Two players are called %(name)s; give each a different name."), name=name)


def _first_dealer(names: Sequence[str], dealer: object) -> int:
    """The seat of whoever deals first, given by name; by default the last player, so that the
    first speaks first (the API's contract)."""
    if dealer is None:
        return len(names) - 1
    if not isinstance(dealer, str):
        raise InvalidInput(Text(N_("The dealer must be given by name.")), field="dealer")
    matches = [i for i, n in enumerate(names) if n == " ".join(inputs.strip_bidi(dealer).split())]
    if not matches:
        raise RulesError(Text(N_("%(name)s is not seated at this table."), name=dealer), field="dealer")
    return matches[0]


def table_language(locale: object) -> str:
    """The table's language as stored (pt_BR when none is given)."""
    if locale is None:
        return "pt_BR"
    if not isinstance(locale, str) or locale not in LOCALES:
        raise InvalidInput(Text(N_("The language must be pt-BR or en.")), field="language")
    return LOCALES[locale]


def rematch(table: Table) -> tuple[Table, str]:
    """A new match at the same table: the same players in the same seats, the same teams,
    options and language; the deal goes on from where it stopped. Only once per table, and only
    when its match is over (a second phone asking gets :class:`Conflict`)."""
    lock_for_write(table)  # judged on the match as it stands, not while a void changes it
    if not match_over(table):
        raise Conflict(Text(N_("This match is not over yet.")))
    if rematch_of(table) is not None:
        raise Conflict(Text(N_("A rematch of this table was already started.")))
    try:
        return create_table(
            game=table.game,
            players=list(players_of(table)),
            dealer=current_dealer(table),
            name=table.name,
            options=table.options,
            locale=table.locale,
            teams=[list(team) for team in teams_of(table)],
            follows=table.id,
            two_key=table.two_key,
        )
    except IntegrityError:
        db.session.rollback()
        raise Conflict(Text(N_("A rematch of this table was already started."))) from None
