"""The OpenAPI 3.1 document of the v1 API.

Enumerations (games, suits, calls) and option names come from the rules package itself, so
the document cannot drift from what the engine accepts.
"""

from __future__ import annotations

from typing import Any

from referee.rules import GAMES, injun
from referee.rules.cards import Suit
from referee.rules.jubileu import ALL_CALLS
from referee.rules.patience import PATIENCES
from referee.rules.quatrilho import Mode
from referee.rules.samba_melds import KINDS as MELD_KINDS

#: "Why this score": lines read like a sum on paper, each total the sum of the lines above it.
BREAKDOWN: dict[str, Any] = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {
            "label": {"type": "string"},
            "amount": {"type": "integer"},
            "total": {
                "type": "boolean",
                "description": "This line's amount is the sum of the amounts above it since the previous total.",
            },
        },
    },
}

ERRORS = {
    "400": "The body is not JSON, a field has the wrong type, a required field is missing, or an option is unknown.",
    "401": "A write without a valid scorer token.",
    "404": "No such table or hand.",
    "409": "A conflict: expected_number is not the next hand number, the hand was just recorded by another client, the hand is already void, or the table is finished.",
    "422": "Well formed but against the rules (an illegal call, tricks that do not add up, a player not seated at the table, ...). Nothing is stored.",
}

#: Why an operation that takes no body may still answer 400.
TEXT_400 = "A text in the path or the query holds a NUL or a lone surrogate, which no text can store."


def _error_responses(*codes: str) -> dict[str, Any]:
    return {
        code: {
            "description": ERRORS[code],
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
        }
        for code in codes
    }


def _option_schema(spec: Any) -> dict[str, Any]:
    schema: dict[str, Any] = {"description": f"{spec.label}: {spec.help}", "default": spec.default}
    if spec.kind == "bool":
        schema["type"] = "boolean"
    elif spec.kind == "choice":
        schema.update(type="string", enum=[c.value for c in spec.choices])
    elif spec.kind == "int":
        schema.update(type="integer", minimum=spec.minimum, maximum=spec.maximum)
    else:
        schema.update(type="string", pattern=r"^\d+([.,]\d{1,2})?$")
    return schema


def schema_name(slug: str) -> str:
    """A game's name in the document's schema names: ``el_gato`` -> ``ElGato``."""
    return "".join(part.capitalize() for part in slug.split("_"))


def hand_records() -> tuple[str, ...]:
    """Every game's hand record schema, in the registry's order (read when the document is made,
    so a game added to the registry is described with the others)."""
    return tuple(f"{schema_name(slug)}Hand" for slug in GAMES)


#: The hand record schemas of the games registered when the module was loaded.
HAND_RECORDS = hand_records()


def _ref(name: str) -> str:
    return f"#/components/schemas/{name}"


def _hand_records() -> dict[str, Any]:
    """Every game's hand record, generated from its one declaration (the game's ``RECORD``,
    closed: the engine refuses an unknown field with 400, and with a worked example), its
    write variant (the record's fields plus :func:`_write_fields` in one closed object), and
    its hand answer (:func:`_hand_answers`)."""
    out: dict[str, Any] = {}
    for slug, game in GAMES.items():
        name = f"{schema_name(slug)}Hand"
        record = game.record.json_schema()
        out[name] = record
        out[f"{name}Write"] = {
            **record,
            "description": "A hand to record: the record plus how to write it.",
            "properties": {**record["properties"], **_write_fields()},
        }
        out[f"{name}Answer"] = {
            "type": "object",
            "required": ["game", "record"],
            "description": f"A hand of a {game.name} table: its record is a {name}.",
            "properties": {"game": {"const": slug}, "record": {"$ref": _ref(name)}},
        }
    return out


def _hand_answers() -> dict[str, Any]:
    """What ties a hand answer to its game: the answer names the table's ``game`` and its
    ``record`` is that game's (``<Game>HandAnswer``). Discriminated by ``game`` rather than
    matched by shape, so that two games whose records look alike never make one answer match
    both (a bare ``oneOf`` over the records would refuse it)."""
    return {
        "oneOf": [{"$ref": _ref(f"{name}Answer")} for name in hand_records()],
        "discriminator": {
            "propertyName": "game",
            "mapping": {slug: _ref(f"{schema_name(slug)}HandAnswer") for slug in GAMES},
        },
    }


def _new_game_contract() -> dict[str, Any]:
    """The keys of a hand's ``contract`` in Koziri, Injun, Kentucky Derby, Lift Smoke, El Gato and the
    patience games (each game's contract_json)."""
    suit = {"type": "string", "enum": [s.value for s in Suit]}
    suits = {"type": "array", "items": suit}
    out_order = {
        "type": ["array", "null"],
        "items": {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
    }
    return {
        "dealer": {"type": "string"},
        "opponent": {"type": "string", "description": "Koziri: the dealer's opponent."},
        "dealer_trump": suit,
        "dealer_second": suit,
        "opponent_trump": suit,
        "opponent_second": suit,
        "winner": {
            "type": ["string", "array"],
            "items": suit,
            "description": "Koziri and Lift Smoke: the winning player; Kentucky Derby: the winning horses (several when they shared).",
        },
        "second": {
            **suits,
            "description": "Kentucky Derby: the second horse(s), empty when second place is not played.",
        },
        "backers": {
            "type": "object",
            "additionalProperties": {"type": "array", "items": {"type": "string"}},
            "description": "Kentucky Derby: each horse's backers.",
        },
        "loser": {"type": "string", "description": "El Gato."},
        "out_order": out_order,
        "system": {"type": "string", "enum": ["poker", "brag"]},
        "ante": {"type": "integer", "minimum": 0},
        "end": {"type": "string", "enum": [e.value for e in injun.End], "description": "Injun: how the betting ended."},
        "finalists": {
            "type": "array",
            "items": {"type": "string"},
            "description": "Injun: the players still betting at the end.",
        },
        "chips": {"type": "integer", "minimum": 0, "description": "Injun: everything that was on the table."},
        "carried_in": {
            "type": "integer",
            "minimum": 0,
            "description": "Pot games: the chips on the table before the deal.",
        },
        "pots": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "chips": {"type": "integer"},
                    "closer": {"type": ["string", "null"]},
                    "contenders": {"type": "array", "items": {"type": "string"}},
                },
            },
            "description": "Injun: each pot, who closed it and who could win it.",
        },
        "game": {"type": "string", "enum": list(PATIENCES), "description": "A patience: which one."},
        "player": {"type": "string"},
        "won": {"type": "boolean"},
        "king_exchanges": {"type": ["integer", "null"]},
        "sequences": {"type": ["integer", "null"]},
        "round": {"type": ["integer", "null"]},
    }


def _write_fields() -> dict[str, Any]:
    """How to write a hand (the WriteFields schema's properties)."""
    return {
        "expected_number": {
            "type": "integer",
            "minimum": 1,
            "description": "Refused with 409 unless it is the next hand number.",
        },
        "replaces": {
            "type": "integer",
            "minimum": 1,
            "description": "A correction: voids this hand in the same write and takes its place in the dealing rotation.",
        },
        "reason": {"type": "string", "maxLength": 200, "description": "Why the replaced hand was voided."},
    }


def _export_schemas() -> dict[str, Any]:
    """An export (GET …/export, POST /import): tables as created and hands as recorded, with
    their events; lossless and without secrets."""
    moment = {"type": "string", "format": "date-time"}
    maybe_moment = {"type": ["string", "null"], "format": "date-time"}
    table_id = {"type": "string", "pattern": "^[A-Za-z0-9_-]{16,32}$"}
    return {
        "Export": {
            "type": "object",
            "required": ["format", "version", "tables"],
            "properties": {
                "format": {"const": "referee-export"},
                "version": {"const": 1},
                "exported_at": moment,
                "tables": {"type": "array", "items": {"$ref": "#/components/schemas/ExportTable"}},
            },
        },
        "ExportTable": {
            "type": "object",
            "required": [
                "id",
                "game",
                "name",
                "players",
                "options",
                "dealer",
                "locale",
                "two_key",
                "created_at",
                "members",
                "hands",
            ],
            "properties": {
                "id": {**table_id, "description": "Kept on import: an id already stored is a 409."},
                "game": {"type": "string", "enum": list(GAMES)},
                "name": {"type": "string", "maxLength": 120},
                "players": {"type": "array", "items": {"type": "string"}, "description": "Order of play."},
                "teams": {
                    "type": ["array", "null"],
                    "items": {"type": "array", "items": {"type": "string"}},
                    "description": "Used by Samba only.",
                },
                "options": {"type": "object"},
                "dealer": {"type": "string", "description": "Who dealt the first hand."},
                "locale": {"type": "string", "enum": ["pt_BR", "en"]},
                "two_key": {"type": "boolean"},
                "created_at": moment,
                "finished_at": maybe_moment,
                "ends_at": maybe_moment,
                "last_round_from": {"type": ["integer", "null"], "minimum": 1},
                "follows": {"type": ["string", "null"], "pattern": "^[A-Za-z0-9_-]{16,32}$"},
                "members": {
                    "type": "object",
                    "additionalProperties": {"type": "string", "maxLength": 40},
                    "description": "Each seat's club member, by name.",
                },
                "hands": {
                    "type": "array",
                    "items": {"$ref": "#/components/schemas/ExportHand"},
                    "description": "Numbered 1, 2, 3, … without gaps.",
                },
            },
        },
        "ExportHand": {
            "type": "object",
            "required": ["number", "record", "created_at", "created_by", "events"],
            "properties": {
                "number": {"type": "integer", "minimum": 1},
                "record": {
                    "type": "object",
                    "description": "The hand record as stored, dealer filled in; judged by the rules again on import.",
                },
                "created_at": moment,
                "created_by": {"type": "string", "maxLength": 60},
                "two_key": {"type": "boolean", "description": "Recorded under two-key entry."},
                "replaces": {
                    "type": "integer",
                    "minimum": 1,
                    "description": "A correction: the hand it replaced (that hand's last event is the void).",
                },
                "events": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["kind", "reason", "actor", "at"],
                        "properties": {
                            "kind": {"type": "string", "enum": ["void", "confirm", "dispute"]},
                            "reason": {"type": "string", "maxLength": 200},
                            "actor": {"type": "string", "maxLength": 60},
                            "at": moment,
                        },
                    },
                },
            },
        },
        "Standings": {
            "type": "object",
            "required": ["game", "season", "standings"],
            "properties": {
                "game": {"type": "string"},
                "season": {
                    "type": ["object", "null"],
                    "properties": {
                        "id": {"type": "integer"},
                        "name": {"type": "string"},
                        "starts_on": {"type": "string", "format": "date"},
                        "ends_on": {"type": "string", "format": "date"},
                    },
                },
                "standings": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["rank", "member_id", "name", "tables", "hands", "net", "won", "average", "rating"],
                        "properties": {
                            "rank": {"type": "integer"},
                            "member_id": {"type": "integer"},
                            "name": {"type": "string"},
                            "tables": {"type": "integer"},
                            "hands": {"type": "integer"},
                            "net": {"type": "integer"},
                            "won": {
                                "type": "integer",
                                "description": "Matches won (Samba); games won (the patience games, where hands are the games played).",
                            },
                            "average": {"type": "number", "description": "Net per hand played."},
                            "win_rate": {
                                "type": "number",
                                "minimum": 0,
                                "maximum": 1,
                                "description": "The patience games only: games won out of games played.",
                            },
                            "lost": {
                                "type": "integer",
                                "minimum": 0,
                                "description": "El Gato only: hands the player lost (left holding the cards).",
                            },
                            "loss_rate": {
                                "type": "number",
                                "minimum": 0,
                                "maximum": 1,
                                "description": "El Gato only: hands lost out of hands played; the standings put the lowest first.",
                            },
                            "patiences": {
                                "type": "object",
                                "additionalProperties": {
                                    "type": "object",
                                    "required": ["games", "wins"],
                                    "properties": {"games": {"type": "integer"}, "wins": {"type": "integer"}},
                                },
                                "description": "The patience games only: games and wins per patience (relogio, relogio_real, cachorro).",
                            },
                            "rating": {
                                "type": ["object", "null"],
                                "description": "openskill (Plackett-Luce): mu, sigma, margin (2 sigma, the ± shown), ordinal (mu - 3 sigma), games fed, provisional.",
                                "properties": {
                                    "mu": {"type": "number"},
                                    "sigma": {"type": "number"},
                                    "margin": {"type": "number"},
                                    "ordinal": {"type": "number"},
                                    "games": {"type": "integer"},
                                    "provisional": {"type": "boolean"},
                                },
                            },
                        },
                    },
                },
            },
        },
        "Imported": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["id", "token"],
                "properties": {
                    "id": {"type": "string"},
                    "token": {"type": "string", "description": "The new owner's token; shown only here."},
                },
            },
        },
    }


def _export_paths(table_id: dict[str, Any]) -> dict[str, Any]:
    """GET …/export(.csv) for a table or a season, and POST /import."""
    season_id = {"name": "season_id", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1}}
    attachment = {"Content-Disposition": {"description": "attachment; filename=…", "schema": {"type": "string"}}}
    as_json = {
        "description": "An export, offered as a file.",
        "headers": attachment,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Export"}}},
    }
    as_csv = {
        "description": "One row per player per hand: table_id, table_name, game, date (local), hand, status (live/void), dealer, "
        "player, member, delta, total (over the live hands so far). Text cells starting with = + - @ get a leading apostrophe.",
        "headers": attachment,
        "content": {"text/csv": {"schema": {"type": "string"}}},
    }
    no_season = {
        "404": {
            "description": "No such season.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
        }
    }
    club_code = {
        "name": "X-Referee-Club-Code",
        "in": "header",
        "required": False,
        "schema": {"type": "string"},
        "description": "The club's code (printed by `make run`); not needed from a phone that typed it at /club. A season's export "
        "carries every table's id, and an id is the permission to read the table.",
    }
    club_refusals = {
        "401": {
            "description": "The club's code is missing or wrong.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
        },
        "429": {
            "description": "Too many wrong club codes in ten minutes, from this client or from all together.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
        },
    }
    return {
        "/tables/{table_id}/export": {
            "get": {
                "summary": "The table and its hands as an export (JSON, lossless, no secrets).",
                "parameters": [table_id],
                "responses": {"200": as_json, **_error_responses("404")},
            }
        },
        "/tables/{table_id}/export.csv": {
            "get": {
                "summary": "The table's hands as CSV.",
                "parameters": [table_id],
                "responses": {"200": as_csv, **_error_responses("404")},
            }
        },
        "/seasons/{season_id}/export": {
            "get": {
                "summary": "Every table of a season as one export (needs the club's code).",
                "parameters": [season_id, club_code],
                "responses": {"200": as_json, **club_refusals, **no_season},
            }
        },
        "/seasons/{season_id}/export.csv": {
            "get": {
                "summary": "Every table of a season as CSV (needs the club's code).",
                "parameters": [season_id, club_code],
                "responses": {"200": as_csv, **club_refusals, **no_season},
            }
        },
        "/league/{game}/standings": {
            "get": {
                "summary": "A game's standings: all time, or over a season (?season=<id>). Rows in the stated order: for chips or units the higher net, "
                "then the higher average per hand, then fewer hands, then the name; for Samba more matches won, then more points, then the name; "
                "for the patience games more games won, then the higher win rate, then the name.",
                "parameters": [
                    {
                        "name": "game",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string", "enum": list(GAMES)},
                    },
                    {"name": "season", "in": "query", "required": False, "schema": {"type": "integer", "minimum": 1}},
                ],
                "responses": {
                    "200": {
                        "description": "The standings, each row with the member's rating (null before his first rated hand).",
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Standings"}}},
                    },
                    "404": {
                        "description": "No such game or season.",
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
                    },
                },
            }
        },
        "/import": {
            "post": {
                "summary": "Rebuild the tables of an export, every hand judged by the rules again; all or nothing. Bodies up to 1 MB (larger files: `flask --app referee import FILE` on the server).",
                "parameters": [
                    {
                        "name": "language",
                        "in": "query",
                        "required": False,
                        "schema": {"type": "string", "enum": ["pt-BR", "en"]},
                    },
                    {
                        "name": "X-Referee-Club-Code",
                        "in": "header",
                        "required": True,
                        "schema": {"type": "string"},
                        "description": "The club's code (printed by `make run`): an import can put tables into any season.",
                    },
                ],
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Export"}}},
                },
                "responses": {
                    "401": {
                        "description": "The club's code is missing or wrong. Nothing is stored.",
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
                    },
                    "429": {
                        "description": "Too many wrong club codes in ten minutes, from this client or from all together"
                        " (code too_many_tries); or another import is running (code busy: try again after the"
                        " Retry-After seconds). Nothing is stored.",
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
                    },
                    "201": {
                        "description": "Stored: each table's id and new owner token.",
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Imported"}}},
                    },
                    **_error_responses("400", "422"),
                    "409": {
                        "description": "A table with one of these ids is already stored. Nothing is stored.",
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
                    },
                    "413": {
                        "description": "The body is larger than 1 MB.",
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
                    },
                },
            }
        },
    }


def _koziri_schemas() -> dict[str, Any]:
    """Koziri's referee helpers (POST /koziri/deal, /koziri/answer): stateless, no token."""
    from referee.rules.koziri_play import DECK_SIZES, RANKS

    suit = {"type": "string", "enum": [s.value for s in Suit]}
    card = {"$ref": "#/components/schemas/KoziriCard"}
    cards = {"type": "array", "items": card}
    seats = {
        "type": ["object", "null"],
        "properties": {"dealer": {"type": "string"}, "opponent": {"type": "string"}},
        "description": "With a table: the players in each seat; null without one.",
    }
    setting = {
        "table": {
            "type": "string",
            "description": "A Koziri table's id: the pack, the players and the dealer by rotation come from it (404 if unknown, 422 if another game).",
        },
        "deck": {
            "type": "integer",
            "enum": list(DECK_SIZES),
            "default": 32,
            "description": "Cards in the pack, without a table only.",
        },
        "dealer": {
            "type": "string",
            "description": "With a table only: the seated player who deals, if not the rotation's.",
        },
        "dealer_trump": suit,
        "dealer_second": suit,
        "opponent_trump": {**suit, "description": "One of the two suits the dealer left (422 otherwise)."},
        "opponent_second": {**suit, "description": "Optional: the suit nobody chose."},
    }
    return {
        "KoziriCard": {
            "type": "object",
            "required": ["rank", "suit"],
            "additionalProperties": False,
            "properties": {
                "rank": {
                    "type": "string",
                    "enum": list(RANKS),
                    "description": "Ranks outside the pack's size are a 422.",
                },
                "suit": suit,
            },
        },
        "KoziriDeal": {
            "type": "object",
            "required": ["dealer_trump", "dealer_second", "opponent_trump", "turned_up"],
            "additionalProperties": False,
            "properties": {
                **setting,
                "turned_up": {
                    **cards,
                    "maxItems": 16,
                    "description": "The cards of the dealer's own two suits among the half of the pack he turned up (none is possible).",
                },
            },
        },
        "KoziriDealAnswer": {
            "type": "object",
            "required": ["deck", "kept", "matched", "to_opponent", "to_dealer", "hands", "first_lead", "players"],
            "properties": {
                "deck": {"type": "integer", "enum": list(DECK_SIZES)},
                "dealer_trump": suit,
                "dealer_second": suit,
                "opponent_trump": suit,
                "opponent_second": suit,
                "kept": {**cards, "description": "1. The dealer keeps his turned-up cards."},
                "matched": {
                    **cards,
                    "description": "2. The same ranks in the opponent's corresponding suits go to the opponent.",
                },
                "to_opponent": {**cards, "description": "3. The rest of the dealer's suits go to the opponent."},
                "to_dealer": {**cards, "description": "4. The rest of the opponent's suits go to the dealer."},
                "hands": {
                    "type": "object",
                    "required": ["dealer", "opponent"],
                    "properties": {"dealer": cards, "opponent": cards},
                    "description": "Both full hands, half the pack each: own suits first (trump first), strongest first.",
                },
                "first_lead": {"type": "string", "enum": ["dealer", "opponent"]},
                "players": seats,
            },
        },
        "KoziriAnswerCheck": {
            "type": "object",
            "required": ["dealer_trump", "dealer_second", "opponent_trump", "answers", "top", "answer"],
            "additionalProperties": False,
            "properties": {
                **setting,
                "answers": {
                    "type": "string",
                    "description": 'Who answers: a seated player\'s name with a table, else "dealer" or "opponent".',
                },
                "top": card,
                "answer": {"oneOf": [{"const": "take"}, card], "description": 'A card, or "take" to pick up the pile.'},
                "hand": {
                    **cards,
                    "description": "Optional: the answerer's cards (open in Koziri), to tell a compulsory take from one by choice.",
                },
            },
        },
        "KoziriVerdict": {
            "type": "object",
            "required": ["legal", "how", "reason", "compulsory", "beating", "answers", "beating_in_pack", "players"],
            "properties": {
                "legal": {"type": "boolean"},
                "how": {
                    "type": ["string", "null"],
                    "enum": ["higher", "trump", "take", None],
                    "description": "How a legal answer beats the card, or take; null when illegal.",
                },
                "reason": {"type": "string", "description": "Why, as a sentence."},
                "compulsory": {
                    "type": "boolean",
                    "description": "A take when nothing in the hand (or in the whole pack) beats the card.",
                },
                "beating": {
                    "type": ["array", "null"],
                    "items": card,
                    "description": "The cards of the given hand that beat the top card; null without a hand.",
                },
                "answers": {"type": "string", "enum": ["dealer", "opponent"]},
                "beating_in_pack": {
                    **cards,
                    "description": "Every card of the pack that would beat the top card for the answerer, weakest first, his trumps last.",
                },
                "players": seats,
            },
        },
    }


def _koziri_paths() -> dict[str, Any]:
    language = {
        "name": "language",
        "in": "query",
        "required": False,
        "schema": {"type": "string", "enum": ["pt-BR", "en"]},
        "description": "Without a table (a table answers in its own).",
    }

    def helper(summary: str, body: str, answer: str) -> dict[str, Any]:
        return {
            "post": {
                "summary": summary,
                "parameters": [language],
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{body}"}}},
                },
                "responses": {
                    "200": {
                        "description": "OK",
                        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{answer}"}}},
                    },
                    **_error_responses("400", "404", "422"),
                },
            }
        }

    return {
        "/koziri/deal": helper(
            "Koziri deal helper (see /games/koziri): both full hands from the dealer's turned-up cards of his suits. Nothing is stored.",
            "KoziriDeal",
            "KoziriDealAnswer",
        ),
        "/koziri/answer": helper(
            "Koziri answer checker (see /games/koziri): is the answer to the top card legal, and why. Nothing is stored.",
            "KoziriAnswerCheck",
            "KoziriVerdict",
        ),
    }


def _championship_schemas() -> dict[str, Any]:
    """A championship's read-only JSON (referee/api/championships.py)."""
    whole = {"type": "integer", "minimum": 0}
    maybe_whole = {"type": ["integer", "null"], "minimum": 1}
    player = {
        "type": "object",
        "required": ["number", "name"],
        "properties": {
            "number": {"type": "integer", "minimum": 1, "description": "The card number."},
            "name": {"type": "string"},
        },
    }
    return {
        "Championship": {
            "type": "object",
            "required": ["id", "name", "game", "settings", "round", "ranking", "rounds", "sealed"],
            "properties": {
                "id": {"type": "string"},
                "name": {"type": "string"},
                "game": {"type": "string", "enum": list(GAMES)},
                "settings": {
                    "type": "object",
                    "required": [
                        "chips",
                        "rounds",
                        "deals",
                        "minutes",
                        "table_size",
                        "late_until",
                        "reentries",
                        "reentry_points",
                        "tiebreaks",
                    ],
                    "properties": {
                        "chips": {
                            "type": "integer",
                            "minimum": 1,
                            "description": "What every entry and re-entry receives.",
                        },
                        "rounds": {"type": "integer", "minimum": 1},
                        "deals": {**maybe_whole, "description": "Deals a round, or null when rounds end by the clock."},
                        "minutes": {
                            **maybe_whole,
                            "description": "Minutes a round, or null when rounds end after their deals.",
                        },
                        "table_size": {"type": "integer", "enum": [4, 5]},
                        "late_until": whole,
                        "reentries": {
                            "type": ["integer", "null"],
                            "minimum": 0,
                            "description": "Re-entries a player may buy per round: null means no limit.",
                        },
                        "reentry_points": {"type": "string"},
                        "tiebreaks": {"type": "array", "items": {"type": "string"}},
                    },
                },
                "round": {**whole, "description": "The latest round drawn (0 before the first draw)."},
                "ranking": {
                    "type": "array",
                    "description": "Best first, as the ranking page: the total, then the tie-breaks in the championship's order; players still level share the place.",
                    "items": {"$ref": "#/components/schemas/ChampionshipLine"},
                },
                "rounds": {"type": "array", "items": {"$ref": "#/components/schemas/ChampionshipRound"}},
                "sealed": {
                    "type": "array",
                    "items": {"type": "integer", "minimum": 1},
                    "description": "The rounds sealed now: their points are held back (the ranking stands as after the last round fully signed off) until every one of their tables signs off.",
                },
            },
        },
        "ChampionshipLine": {
            "type": "object",
            "required": [
                "place",
                "number",
                "name",
                "total",
                "final",
                "reentries",
                "rounds",
                "round_prizes",
                "status",
                "reason",
            ],
            "properties": {
                "place": {
                    **whole,
                    "description": "1 and on; 0 = no place (a disqualified player, listed last).",
                },
                "number": {"type": "integer", "minimum": 1},
                "name": {"type": "string"},
                "total": {"type": "integer"},
                "final": {
                    "type": "boolean",
                    "description": "False while a table of his is not signed off (provisional points).",
                },
                "reentries": whole,
                "rounds": {
                    "type": "array",
                    "description": "One item a round of the championship: null for a round he did not play (not drawn yet, or a late entry).",
                    "items": {
                        "oneOf": [
                            {"type": "null"},
                            {
                                "type": "object",
                                "required": ["points", "final", "reentries"],
                                "properties": {
                                    "points": {"type": "integer"},
                                    "final": {"type": "boolean"},
                                    "reentries": whole,
                                },
                            },
                        ]
                    },
                },
                "round_prizes": {
                    "type": "array",
                    "items": {"type": "integer", "minimum": 1},
                    "description": "The rounds in which he had the best points.",
                },
                "status": {
                    "type": "string",
                    "enum": ["", "withdrawn", "absent", "disqualified"],
                    "description": "Empty while he plays; withdrawn (gone home) and absent are no longer drawn, disqualified has no place.",
                },
                "reason": {"type": "string", "description": "A disqualification's reason (empty otherwise)."},
            },
        },
        "ChampionshipRound": {
            "type": "object",
            "required": ["number", "seed", "drawn_at", "ends_at", "pairs_again", "pairs_again_so_far", "tables"],
            "properties": {
                "number": {"type": "integer", "minimum": 1},
                "seed": {
                    "type": "string",
                    "description": "The seed of the draw: the plan page's check runs the draw again from it.",
                },
                "drawn_at": {"type": "string", "format": "date-time"},
                "ends_at": {"type": ["string", "null"], "format": "date-time"},
                "pairs_again": {
                    **whole,
                    "description": "Pairs of players who meet again in this round (they shared a table before).",
                },
                "pairs_again_so_far": {**whole, "description": "The same, over the day up to this round."},
                "tables": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["number", "signed", "players"],
                        "properties": {
                            "number": {"type": "integer", "minimum": 1},
                            "signed": {"type": "boolean"},
                            "players": {"type": "array", "items": player, "description": "In seat order."},
                        },
                    },
                },
            },
        },
    }


def _championship_paths() -> dict[str, Any]:
    return {
        "/championships/{championship_id}": {
            "get": {
                "summary": "A championship, read-only: its settings, the ranking as it stands, and each round drawn with its plan (readable by its id, as its public pages are).",
                "parameters": [
                    {"name": "championship_id", "in": "path", "required": True, "schema": {"type": "string"}}
                ],
                "responses": {
                    "200": {
                        "description": "The championship.",
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Championship"}}},
                    },
                    "404": {
                        "description": "No such championship.",
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
                    },
                },
            }
        }
    }


#: Where the API lives, as the document's server: relative (OpenAPI resolves it against the
#: document's own address), so the document names no host, whatever address served it.
SERVER = "/api/v1"


def document() -> dict[str, Any]:
    json_ok = lambda ref, description="OK": {  # noqa: E731
        "description": description,
        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{ref}"}}},
    }
    table_id = {"name": "table_id", "in": "path", "required": True, "schema": {"type": "string"}}
    number = {"name": "number", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1}}
    bearer = [{"scorer": []}]
    return _every_text_checked(
        {
            "openapi": "3.1.0",
            "info": {
                "title": "Referee API",
                "version": "1.0.0",
                "description": "Record card-game hands played with real cards and get the settlement. "
                "Players are named by display name, unique within a table, listed in order of play. "
                "Error messages are sentences in the table's language (pt-BR by default).",
            },
            "servers": [{"url": SERVER}],
            "components": {
                "securitySchemes": {
                    "scorer": {
                        "type": "http",
                        "scheme": "bearer",
                        "description": "The token answered when the table was created.",
                    }
                },
                "schemas": {
                    "Error": {
                        "type": "object",
                        "required": ["error"],
                        "properties": {
                            "error": {
                                "type": "object",
                                "required": ["code", "message"],
                                "properties": {
                                    "code": {"type": "string"},
                                    "message": {
                                        "type": "string",
                                        "description": "A full sentence a player can act on.",
                                    },
                                    "field": {
                                        "type": "string",
                                        "description": "Where in the posted record, e.g. auction[3] or tricks.Ana.",
                                    },
                                    "current_number": {
                                        "type": "integer",
                                        "description": "409 only: the number of the latest stored hand.",
                                    },
                                },
                            }
                        },
                    },
                    "TableCreate": {
                        "type": "object",
                        "required": ["game", "players"],
                        "additionalProperties": False,
                        "properties": {
                            "game": {
                                "type": "string",
                                "enum": list(GAMES),
                                "description": "Games not refereed yet answer 422.",
                            },
                            "players": {
                                "type": "array",
                                "items": {"type": "string", "minLength": 1, "maxLength": 40},
                                "description": "Order of play.",
                            },
                            "dealer": {"type": "string", "description": "First dealer; default the last player."},
                            "name": {"type": "string", "maxLength": 120},
                            "language": {"type": "string", "enum": ["pt-BR", "en"], "default": "pt-BR"},
                            "two_key": {
                                "type": "boolean",
                                "default": False,
                                "description": "Two-key entry: each hand waits for a confirmation through another access than the one that recorded it.",
                            },
                            "duration_minutes": {
                                "type": "integer",
                                "minimum": 15,
                                "maximum": 1440,
                                "description": "The session clock: the time the players agreed to play; the table answers `clock` with when it ends and the minutes left.",
                            },
                            "options": {
                                "anyOf": [
                                    {"$ref": f"#/components/schemas/{schema_name(slug)}Options"} for slug in GAMES
                                ],
                                "description": "The game's house rules; defaults filled in.",
                            },
                            "teams": {
                                "type": "array",
                                "items": {"type": "array", "items": {"type": "string"}},
                                "description": "Samba only: teams of equal size, every player in one. Default: partners across at 4 "
                                "([[p0, p2], [p1, p3]]), two teams of three at 6, each for himself with 2, 3 or 5.",
                            },
                        },
                    },
                    **{
                        f"{schema_name(slug)}Options": {
                            "type": "object",
                            "additionalProperties": False,
                            "properties": {spec.name: _option_schema(spec) for spec in rules.option_specs},
                        }
                        for slug, rules in GAMES.items()
                    },
                    "Table": {
                        "type": "object",
                        "properties": {
                            "id": {"type": "string"},
                            "game": {"type": "string"},
                            "name": {"type": "string"},
                            "players": {"type": "array", "items": {"type": "string"}},
                            "options": {"type": "object"},
                            "language": {"type": "string"},
                            "hands": {"type": "array", "items": {"$ref": "#/components/schemas/HandAnswer"}},
                            "totals": {"type": "object", "additionalProperties": {"type": "integer"}},
                            "stock": {
                                "type": "object",
                                "additionalProperties": {"type": "integer"},
                                "description": "Starting chips, apart from the net totals.",
                            },
                            "next_dealer": {"type": "string"},
                            "next_number": {"type": "integer"},
                            "teams": {
                                "type": "array",
                                "items": {"type": "array", "items": {"type": "string"}},
                                "description": "Each player a team of one, except in Samba.",
                            },
                            "finished": {
                                "type": "boolean",
                                "description": "The table was closed, or (Samba) the match is over.",
                            },
                            "winner": {
                                "type": ["string", "integer", "null"],
                                "description": "Samba: the winning team's index.",
                            },
                            "match": {
                                "type": "array",
                                "items": {"$ref": "#/components/schemas/TeamStanding"},
                                "description": "Samba: each team's total and next opening meld.",
                            },
                            "follows": {
                                "type": ["string", "null"],
                                "description": "The table this one is a rematch of.",
                            },
                            "rematch": {
                                "type": ["string", "null"],
                                "description": "The table that is this one's rematch.",
                            },
                            "on_the_table": {
                                "type": "integer",
                                "description": "Games with a pot (Injun, Kentucky Derby, Lift Smoke): the chips left on the table for the next deal, which the next hand's record gets as carried_in.",
                            },
                            "clock": {
                                "type": ["object", "null"],
                                "description": "The session clock (null without an agreed time): when it ends, the whole minutes left, whether time is up.",
                                "properties": {
                                    "ends_at": {"type": "string", "format": "date-time"},
                                    "left": {"type": "integer"},
                                    "over": {"type": "boolean"},
                                },
                            },
                            "urls": {
                                "type": "object",
                                "properties": {"table": {"type": "string"}, "watch": {"type": "string"}},
                            },
                        },
                    },
                    "TableCreated": {
                        "allOf": [
                            {"$ref": "#/components/schemas/Table"},
                            {
                                "type": "object",
                                "required": ["id", "token", "urls"],
                                "properties": {
                                    "token": {"type": "string", "description": "The scorer's secret; shown only here."}
                                },
                            },
                        ]
                    },
                    "TeamStanding": {
                        "type": "object",
                        "properties": {
                            "players": {"type": "array", "items": {"type": "string"}},
                            "total": {"type": "integer"},
                            "min_meld": {
                                "type": "integer",
                                "description": "The card points this team's opening meld needs in the next hand.",
                            },
                        },
                    },
                    "TeamHandScore": {
                        "allOf": [
                            {"$ref": "#/components/schemas/TeamStanding"},
                            {
                                "type": "object",
                                "properties": {
                                    "score": {"type": "integer", "description": "This hand's score."},
                                    "breakdown": BREAKDOWN,
                                },
                            },
                        ]
                    },
                    "MeldCheck": {
                        "type": "object",
                        "required": ["melds"],
                        "additionalProperties": False,
                        "description": "Cards are written rank then suit: A, 2-10, J, Q, K and c/♥ (copas), o/♦ (ouros), e/♠ (espadas), p/♣ (paus); a joker is JK.",
                        "properties": {
                            "melds": {
                                "type": "array",
                                "minItems": 1,
                                "maxItems": 20,
                                "items": {
                                    "type": "array",
                                    "maxItems": 30,
                                    "items": {"type": "string", "examples": ["Kc", "10♠", "JK"]},
                                },
                            },
                            "going_out": {
                                "type": "boolean",
                                "default": False,
                                "description": "Black 3s may be melded only when going out.",
                            },
                            "discard_top": {
                                "type": ["string", "null"],
                                "description": "The top of the discard pile taken with the opening; it counts toward it.",
                            },
                            "total": {
                                "type": ["integer", "null"],
                                "description": "The team's total before the hand: sets the opening minimum (15/50/90/120/150).",
                            },
                            "required": {
                                "type": ["integer", "null"],
                                "minimum": 0,
                                "description": "The opening minimum itself (instead of total).",
                            },
                            "table": {
                                "type": "string",
                                "description": "With team: take the minimum (and house rules) of that team at this Samba table.",
                            },
                            "team": {"type": "integer", "minimum": 0},
                        },
                    },
                    "MeldVerdict": {
                        "type": "object",
                        "properties": {
                            "legal": {"type": "boolean"},
                            "kind": {"type": "string", "enum": list(MELD_KINDS)},
                            "label": {"type": "string"},
                            "points": {"type": "integer", "description": "Card values."},
                            "premium": {
                                "type": "integer",
                                "description": "Canastra or samba premium (not counted toward an opening).",
                            },
                            "penalty": {"type": "integer", "description": "100 for three wild cards in a canastra."},
                            "cards": {"type": "array", "items": {"type": "string"}},
                            "reasons": {
                                "type": "array",
                                "items": {"type": "string"},
                                "description": "Why the meld is not legal, a sentence each.",
                            },
                            "warnings": {"type": "array", "items": {"type": "string"}},
                        },
                    },
                    "MeldCheckAnswer": {
                        "type": "object",
                        "properties": {
                            "legal": {"type": "boolean", "description": "Every meld is legal."},
                            "melds": {"type": "array", "items": {"$ref": "#/components/schemas/MeldVerdict"}},
                            "opening": {
                                "type": ["object", "null"],
                                "description": "Present when a minimum is known.",
                                "properties": {
                                    "legal": {"type": "boolean"},
                                    "points": {"type": "integer"},
                                    "required": {"type": "integer"},
                                    "reached": {"type": "boolean"},
                                    "melds": {"type": "array", "items": {"$ref": "#/components/schemas/MeldVerdict"}},
                                    "reasons": {"type": "array", "items": {"type": "string"}},
                                    "discard_top": {"type": ["string", "null"]},
                                    "discard_meld": {
                                        "type": ["integer", "null"],
                                        "description": "The meld the discard top joined.",
                                    },
                                },
                            },
                        },
                    },
                    "WriteFields": {"type": "object", "properties": _write_fields()},
                    "Preview": {
                        "type": "object",
                        "description": "What a hand would settle; nothing is stored.",
                        "properties": {
                            "number": {"type": "integer"},
                            "dealer": {"type": "string"},
                            "next_dealer": {"type": "string"},
                            "deltas": {"type": "object", "additionalProperties": {"type": "integer"}},
                            "contract": {"type": "object"},
                            "breakdown": BREAKDOWN,
                            "payments": {"type": "array", "items": {"$ref": "#/components/schemas/Transfer"}},
                            "totals": {
                                "type": "object",
                                "additionalProperties": {"type": "integer"},
                                "description": "Running totals if this hand were stored.",
                            },
                            "teams": {
                                "type": "array",
                                "items": {"$ref": "#/components/schemas/TeamHandScore"},
                                "description": "Samba: each team's score, new total and next opening meld.",
                            },
                            "finished": {"type": "boolean", "description": "Samba: the match is over."},
                            "winner": {"type": ["integer", "null"], "description": "Samba: the winning team's index."},
                        },
                    },
                    "HandAnswer": {
                        "type": "object",
                        "properties": {
                            "number": {"type": "integer"},
                            "dealer": {"type": "string"},
                            "next_dealer": {"type": "string"},
                            "deltas": {"type": "object", "additionalProperties": {"type": "integer"}},
                            "totals": {
                                "type": "object",
                                "additionalProperties": {"type": "integer"},
                                "description": "Running totals of the live hands up to this hand in play, as they stand now.",
                            },
                            "contract": {
                                "type": "object",
                                "description": "What was played, in the game's terms (Jubileu: bid, declarers, partner, trump, called; "
                                "Quatrilho: mode, declarer, partner, giver, called_card, sitting_out; Samba: went_out; "
                                "Koziri: dealer, opponent, the four suits, winner; Injun: system, ante, end, finalists, chips, carried_in, pots; "
                                "Kentucky Derby: winner and second (lists of horses), backers, carried_in; Lift Smoke: winner, ante, out_order, carried_in; "
                                "El Gato: loser, out_order; a patience: game, player, won and its figure).",
                                "properties": {
                                    "bid": {"type": "string", "enum": [c.value for c in ALL_CALLS]},
                                    "declarers": {"type": "array", "items": {"type": "string"}},
                                    "partner": {"type": ["string", "null"]},
                                    "trump": {"type": ["string", "null"], "enum": [*[s.value for s in Suit], None]},
                                    "called": {"type": ["string", "null"], "enum": [*[s.value for s in Suit], None]},
                                    "mode": {"type": "string", "enum": [m.value for m in Mode]},
                                    "declarer": {"type": ["string", "null"]},
                                    "giver": {"type": ["string", "null"]},
                                    "called_card": {"type": ["object", "null"]},
                                    "sitting_out": {"type": ["string", "null"]},
                                    "went_out": {"type": ["string", "null"]},
                                    **_new_game_contract(),
                                },
                            },
                            "breakdown": BREAKDOWN,
                            "payments": {"type": "array", "items": {"$ref": "#/components/schemas/Transfer"}},
                            "game": {
                                "type": "string",
                                "enum": list(GAMES),
                                "description": "The table's game: the record is this game's (see the discriminator).",
                            },
                            "record": {"type": "object", "description": "The hand record of the table's game."},
                            "teams": {
                                "type": "array",
                                "items": {"$ref": "#/components/schemas/TeamHandScore"},
                                "description": "Samba: each team's score, new total and next opening meld.",
                            },
                            "finished": {"type": "boolean", "description": "Samba: the match is over."},
                            "winner": {"type": ["integer", "null"], "description": "Samba: the winning team's index."},
                            "void": {"type": "boolean"},
                            "voided": {
                                "type": "object",
                                "properties": {
                                    "at": {"type": "string", "format": "date-time"},
                                    "by": {"type": "string"},
                                    "reason": {"type": "string"},
                                },
                            },
                            "replaces": {"type": "integer"},
                            "restores": {
                                "type": "integer",
                                "description": "The undone hand this one brought back (the web's redo).",
                            },
                            "display_number": {
                                "type": ["integer", "null"],
                                "description": "The number the pages show, the hand's place among the live hands in "
                                "play order (1..N; a correction keeps the number of the hand it corrects); null for a "
                                "void hand. A hand's own answer gives its place now; a new hand's answer the place it "
                                "took when recorded.",
                            },
                            "status": {
                                "type": "string",
                                "enum": ["to_confirm", "confirmed", "disputed", "void"],
                                "description": "Under two-key entry only.",
                            },
                            "confirmed": {
                                "type": "object",
                                "properties": {
                                    "at": {"type": "string", "format": "date-time"},
                                    "by": {"type": "string"},
                                },
                                "description": "Two-key entry: who confirmed the hand, and when.",
                            },
                        },
                        **_hand_answers(),
                    },
                    "Transfer": {
                        "type": "object",
                        "required": ["from", "to", "amount"],
                        "properties": {
                            "from": {"type": "string"},
                            "to": {"type": "string"},
                            "amount": {"type": "integer", "minimum": 1},
                            "money": {"type": "string"},
                        },
                    },
                    "Settlement": {
                        "type": "object",
                        "description": "Chip games: balances and transfers. Samba: the match score (teams, totals) and the winner instead.",
                        "properties": {
                            "teams": {"type": "array", "items": {"$ref": "#/components/schemas/TeamStanding"}},
                            "totals": {"type": "object", "additionalProperties": {"type": "integer"}},
                            "finished": {"type": "boolean"},
                            "winner": {"type": ["integer", "null"]},
                            "balances": {"type": "object", "additionalProperties": {"type": "integer"}},
                            "transfers": {
                                "type": "array",
                                "items": {"$ref": "#/components/schemas/Transfer"},
                                "description": "The fewest payments that settle the balances.",
                            },
                            "money": {"type": "object", "additionalProperties": {"type": "string"}},
                            "on_the_table": {
                                "type": "integer",
                                "minimum": 1,
                                "description": "Pot games: chips nobody won that are still on the table; present only then.",
                            },
                            "settled_balances": {
                                "type": "object",
                                "additionalProperties": {"type": "integer"},
                                "description": "Pot games with chips on the table: the balances with those chips shared back equally (odd chips to the first players in order of play from the next deal's first player); the transfers clear these.",
                            },
                        },
                    },
                    "Void": {"type": "object", "properties": {"reason": {"type": "string", "maxLength": 200}}},
                    **_hand_records(),
                    **_export_schemas(),
                    **_koziri_schemas(),
                    **_championship_schemas(),
                },
            },
            "paths": {
                "/openapi.json": {
                    "get": {"summary": "This document.", "responses": {"200": {"description": "OpenAPI 3.1"}}}
                },
                "/tables": {
                    "post": {
                        "summary": "Create a table.",
                        "requestBody": {
                            "required": True,
                            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/TableCreate"}}},
                        },
                        "responses": {
                            "201": json_ok("TableCreated", "Created; the token is shown only now."),
                            **_error_responses("400", "422"),
                        },
                    }
                },
                "/tables/{table_id}": {
                    "get": {
                        "summary": "A table with its hands, totals and next dealer.",
                        "parameters": [table_id],
                        "responses": {"200": json_ok("Table"), **_error_responses("404")},
                    }
                },
                "/tables/{table_id}/hands": {
                    "post": {
                        "summary": "Record the next hand.",
                        "security": bearer,
                        "parameters": [
                            table_id,
                            {
                                "name": "Idempotency-Key",
                                "in": "header",
                                "required": False,
                                "schema": {"type": "string", "minLength": 1, "maxLength": 100},
                                "description": "A retry with the same key answers the first answer and stores nothing new.",
                            },
                        ],
                        "requestBody": {
                            "required": True,
                            "content": {
                                "application/json": {
                                    "schema": {
                                        "anyOf": [
                                            {"$ref": f"#/components/schemas/{name}Write"} for name in hand_records()
                                        ],
                                        "description": "The record of the table's game (the table says which; "
                                        "two games' records may look alike).",
                                    }
                                }
                            },
                        },
                        "responses": {
                            "201": json_ok("HandAnswer", "Stored."),
                            **_error_responses("400", "401", "404", "409", "422"),
                        },
                    }
                },
                "/tables/{table_id}/hands/preview": {
                    "post": {
                        "summary": "Judge a hand without storing it.",
                        "parameters": [table_id],
                        "requestBody": {
                            "required": True,
                            "content": {
                                "application/json": {
                                    "schema": {
                                        "anyOf": [{"$ref": f"#/components/schemas/{name}"} for name in hand_records()],
                                        "description": "The record of the table's game (the table says which).",
                                    }
                                }
                            },
                        },
                        "responses": {"200": json_ok("Preview"), **_error_responses("400", "404", "409", "422")},
                    }
                },
                "/tables/{table_id}/hands/{number}": {
                    "get": {
                        "summary": "One hand as answered when recorded.",
                        "parameters": [table_id, number],
                        "responses": {"200": json_ok("HandAnswer"), **_error_responses("404")},
                    }
                },
                "/tables/{table_id}/hands/{number}/void": {
                    "post": {
                        "summary": "Void a hand. It stays in the history, marked void; totals and rotation follow. Under two-key entry a "
                        "hand both sides confirmed is voided only with the owner's token (422 otherwise): a scorer corrects it instead.",
                        "security": bearer,
                        "parameters": [table_id, number],
                        "requestBody": {
                            "required": False,
                            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Void"}}},
                        },
                        "responses": {
                            "200": json_ok("HandAnswer", "Voided."),
                            **_error_responses("400", "401", "404", "409", "422"),
                        },
                    }
                },
                "/samba/meld-check": {
                    "post": {
                        "summary": "Samba meld checker: is each meld legal, what is it worth, does the opening reach the team's minimum. Nothing is stored.",
                        "parameters": [
                            {
                                "name": "language",
                                "in": "query",
                                "required": False,
                                "schema": {"type": "string", "enum": ["pt-BR", "en"]},
                            }
                        ],
                        "requestBody": {
                            "required": True,
                            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/MeldCheck"}}},
                        },
                        "responses": {"200": json_ok("MeldCheckAnswer"), **_error_responses("400", "404", "422")},
                    }
                },
                "/tables/{table_id}/rematch": {
                    "post": {
                        "summary": "Start a rematch once the match is over: a new table with the same players, teams and options.",
                        "security": bearer,
                        "parameters": [table_id],
                        "responses": {
                            "201": json_ok("TableCreated", "Created; the new table's token is shown only now."),
                            **_error_responses("401", "404", "409"),
                        },
                    }
                },
                "/tables/{table_id}/hands/{number}/confirm": {
                    "post": {
                        "summary": "Two-key entry: confirm a hand recorded through another access (another scoring link or join code, or the owner's "
                        "token for a scorer's hand); the recorder's own token is refused with 422. The answer's status becomes confirmed.",
                        "security": bearer,
                        "parameters": [table_id, number],
                        "responses": {
                            "200": json_ok("HandAnswer", "Confirmed."),
                            **_error_responses("401", "404", "409", "422"),
                        },
                    }
                },
                "/tables/{table_id}/hands/{number}/dispute": {
                    "post": {
                        "summary": "Two-key entry: flag a hand for the owner; it stays counted, marked disputed, until confirmed, voided or corrected.",
                        "security": bearer,
                        "parameters": [table_id, number],
                        "requestBody": {
                            "required": False,
                            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Void"}}},
                        },
                        "responses": {
                            "200": json_ok("HandAnswer", "Disputed."),
                            **_error_responses("400", "401", "404", "409"),
                        },
                    }
                },
                "/tables/{table_id}/settlement": {
                    "get": {
                        "summary": "Running balances and the fewest transfers that settle them.",
                        "parameters": [table_id],
                        "responses": {"200": json_ok("Settlement"), **_error_responses("404")},
                    }
                },
                **_export_paths(table_id),
                **_koziri_paths(),
                **_championship_paths(),
            },
        }
    )


def _every_text_checked(spec: dict[str, Any]) -> dict[str, Any]:
    """Every operation may answer 400: a text in its path, query or body holding a NUL or a
    lone surrogate is refused before the operation reads it (referee.inputs), whatever else
    the operation takes."""
    for operations in spec["paths"].values():
        for operation in operations.values():
            operation["responses"].setdefault("400", _error_responses("400")["400"] | {"description": TEXT_400})
    return spec


__all__ = ["document"]
