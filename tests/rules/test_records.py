"""Every game's hand record, from its one declaration (:class:`referee.rules.record.RecordSpec`):
the example the API document shows is valid by its schema and accepted by the game, and a record
object checks its own fields however it was built."""

from __future__ import annotations

import dataclasses
from typing import Any

import jsonschema
import pytest

from referee.rules import GAMES
from referee.rules.errors import RulesError
from referee.rules.record import Count, Player

SLUGS = sorted(GAMES)


def _example_hand(game: Any) -> Any:
    record = game.record
    return game.parse_hand(
        dict(record.example),
        players=record.example_players,
        options=game.parse_options(None),
        dealer=record.example_players[-1],
    )


@pytest.mark.parametrize("slug", SLUGS)
def test_the_documented_example_is_valid_and_accepted(slug: str) -> None:
    game = GAMES[slug]
    schema = game.record.json_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["examples"] == [dict(game.record.example)]
    jsonschema.validate(dict(game.record.example), schema)
    hand = _example_hand(game)
    assert game.dealer_of(hand) in game.record.example_players
    # What the record stores reads back as the same hand.
    again = game.parse_hand(
        game.hand_json(hand),
        players=game.record.example_players,
        options=game.parse_options(None),
        dealer=game.record.example_players[-1],
    )
    assert game.hand_json(again) == game.hand_json(hand)


@pytest.mark.parametrize("slug", SLUGS)
def test_a_record_refuses_an_unknown_field_and_a_table_of_the_wrong_size(slug: str) -> None:
    game = GAMES[slug]
    record = game.record
    with pytest.raises(RulesError) as info:
        record.read({**record.example, "looser": 1}, players=record.example_players)
    assert info.value.code == "invalid_input" and info.value.field == "looser"
    too_many = tuple(f"P{i}" for i in range(record.player_counts[-1] + 1))
    with pytest.raises(RulesError) as info:
        record.read({}, players=too_many)
    assert info.value.code == "rules_error" and info.value.field == "players"
    assert str(game.name) in str(info.value)


@pytest.mark.parametrize("slug", SLUGS)
def test_a_record_object_checks_its_own_fields(slug: str) -> None:
    """Replace each declared player or count field of a valid hand by a stranger or a number
    out of bounds: building the record fails at once, with the field named."""
    game = GAMES[slug]
    hand = _example_hand(game)
    checked = 0
    for spec in game.record.fields:
        if not hasattr(hand, spec.name) or getattr(hand, spec.name) is None:
            continue
        if isinstance(spec, Player):
            bad: object = "Nobody at this table"
        elif isinstance(spec, Count):
            bad = spec.high + 1
        else:
            continue
        with pytest.raises(RulesError) as info:
            dataclasses.replace(hand, **{spec.name: bad})
        assert info.value.field == spec.name
        checked += 1
    assert checked, f"{slug}: no declared player or count field on the record to check"
