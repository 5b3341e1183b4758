"""Hypothesis against the HTML forms, through the Flask test client (CSRF off, as in tests/web).

- POST /tables/new?game=<each game> with arbitrary field values (text, unicode, huge strings,
  missing and unknown fields): never a 5xx; a table it creates is one the API would create too.
- GET /t/<id>/hand with arbitrary ``d=`` drafts, ``action=`` values and query fields, for every
  game (jubileu, quatrilho, samba): never a 5xx, and a GET stores nothing.
- POST /t/<id>/hand (and Jubileu's /hand/all-pass) with arbitrary form bodies, from a real draft
  for the next hand, through mutated ones, to garbage: never a 5xx, never a stored hand the engine
  refuses (each stored record is parsed again by the game's rules and settles to the stored
  deltas), never a half-stored hand (the cached state equals the state rebuilt from the hands).

Examples are derandomized (the same ones on every run). PROOF_FORM_EXAMPLES scales them;
PROOF_SHRINK=1 shrinks a failing example.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from referee import ledger
from referee.extensions import db
from referee.rules import GAMES, samba
from referee.rules.cards import SPANISH_RANKS, Suit
from referee.rules.errors import RulesError
from referee.rules.jubileu import ALL_CALLS
from referee.rules.quatrilho import Call as QuatrilhoCall
from referee.rules.quatrilho import Mode
from referee.views.games import jubileu as jubileu_flow
from referee.views.games import quatrilho as quatrilho_flow
from referee.views.games import samba as samba_flow
from tests.bench import hands as jubileu_hands
from tests.bench import quatrilho_hands, samba_hands

from .conftest import BACKEND, dispose, fresh_database, in_process_app, known_bug, ledger_problems

SCALE = float(os.environ.get("PROOF_FORM_EXAMPLES", "1" if BACKEND == "sqlite" else "0.4"))
GAME_SLUGS = ("jubileu", "quatrilho", "samba")
PLAYERS = {"jubileu": jubileu_hands.PLAYERS, "quatrilho": quatrilho_hands.PLAYERS, "samba": samba_hands.PLAYERS}
SUITS = [s.value for s in Suit]


#: No shrinking by default: when a change breaks every page (a template typo), shrinking thousands
#: of failing page renders takes minutes; the first failing example is reported as drawn.
#: PROOF_SHRINK=1 turns shrinking back on to get the smallest example.
PHASES = [Phase.explicit, Phase.generate, *([Phase.shrink] if os.environ.get("PROOF_SHRINK") else [])]


def examples(n: int) -> settings:
    return settings(
        max_examples=max(10, int(n * SCALE)),
        deadline=None,
        derandomize=True,
        database=None,
        phases=PHASES,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    )


# --------------------------------------------------------------------------- the app


@dataclass
class Forms:
    app: Flask
    client: FlaskClient  # holds the scorer code of every table below in its session
    tables: dict[str, str] = field(default_factory=dict)  # game -> table id
    known: dict[str, int] = field(default_factory=dict)  # known bugs met (conftest.KNOWN_BUGS)

    def send(self, method: str, *args: Any, client: FlaskClient | None = None, **kwargs: Any) -> Any:
        """A request (through the scorer's client unless another is given); a known bug's exception
        is counted, not raised (None is answered), anything else propagates and fails the example."""
        try:
            return getattr(client or self.client, method)(*args, **kwargs)
        except Exception as exc:
            label = known_bug(exc)
            if label is None:
                raise
            self.known[label] = self.known.get(label, 0) + 1
            return None


def valid_new_table_form(game: str, players: tuple[str, ...] | None = None) -> dict[str, str]:
    """The new-table form as a browser sends it: names, the last seat dealing, default options."""
    rules = GAMES[game]
    names = players or PLAYERS[game]
    form = {f"player_{i}": name for i, name in enumerate(names)}
    form["dealer"] = str(len(names) - 1)
    form["name"] = "Sexta no clube"
    for spec in rules.option_specs:
        if spec.kind == "bool":
            if spec.default:
                form[f"opt_{spec.name}"] = "y"
        else:
            form[f"opt_{spec.name}"] = str(spec.default)
    if game == "samba":
        form["teams"] = "across"
        form["opt_target"] = "1000000"  # the POST fuzz stores many hands: keep the match open
    return form


@pytest.fixture(scope="module")
def forms(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Forms]:
    workdir = tmp_path_factory.mktemp("fuzz-forms")
    with fresh_database(workdir) as url:
        app = in_process_app(url, workdir / "instance", TESTING=True, WTF_CSRF_ENABLED=False)
        client = app.test_client()
        made = Forms(app, client)
        for game in GAME_SLUGS:
            response = client.post(f"/tables/new?game={game}", data=valid_new_table_form(game))
            assert response.status_code == 302, response.get_data(as_text=True)
            made.tables[game] = response.headers["Location"].rsplit("/t/", 1)[1]
        try:
            yield made
        finally:
            print(f"\nforms fuzz: known bugs met (conftest.KNOWN_BUGS): {made.known or 'none'}")
            dispose(app)


def _table_facts(app: Flask, table_id: str) -> tuple[str, int, int]:
    """The next dealer, the next hand number and the number of hands stored."""
    with app.app_context():
        table = ledger.get_table(table_id)
        facts = ledger.current_dealer(table), ledger.next_number(table), len(ledger.all_hands(table))
        db.session.remove()
    return facts


def refused_hands(app: Flask, table_id: str) -> list[str]:
    """Stored hands the engine would not take: each record is parsed again by the game's rules
    (as POST /api/v1/…/hands would) and must settle to the deltas stored with it."""
    problems = []
    with app.app_context():
        table = ledger.get_table(table_id)
        rules, options = ledger.rules_of(table), ledger.options_of(table)
        players, teams = ledger.players_of(table), ledger.teams_of(table)
        for hand in ledger.all_hands(table):
            try:
                parsed = rules.parse_hand(
                    hand.record, players=players, options=options, dealer=hand.dealer, teams=teams
                )
            except RulesError as exc:
                problems.append(f"hand {hand.number} {hand.record}: the engine refuses it: {exc}")
                continue
            deltas = rules.settle(parsed, options).deltas
            if {n: int(deltas.get(n, 0)) for n in players} != {n: int(v) for n, v in hand.result["deltas"].items()}:
                problems.append(
                    f"hand {hand.number}: stored deltas {hand.result['deltas']}, the engine says {dict(deltas)}"
                )
        db.session.remove()
    return problems


# --------------------------------------------------------------------------- strategies

json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
)
json_any = st.recursive(
    json_leaf,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=10,
)
#: Huge values: a character repeated up to past the 64 KB request limit (cheap to generate).
huge = st.builds(
    lambda c, n: c * n, st.sampled_from(["a", "é", "😀", "\x00", " ", "9", "<", "'"]), st.integers(200, 70_000)
)
field_value = st.one_of(
    st.text(max_size=30),
    # Non-ASCII text a browser can send: no lone surrogates (no request can carry one in UTF-8).
    st.text(alphabet=st.characters(min_codepoint=0x80, codec="utf-8"), max_size=60),
    st.sampled_from(
        ["", " ", "0", "1", "-1", "3", "99999999999", "1e9", "²", "٣", "y", "on", "true", "Ana", "ana", "ANA ", "Zé"]
    ),
    huge,
)


def seat_text() -> st.SearchStrategy[str]:
    return st.one_of(st.integers(0, 6).map(str), st.sampled_from(["-1", "", "x", "10", "٣", "00"]), st.text(max_size=4))


def typed_draft_fields(game: str, players: tuple[str, ...]) -> dict[str, st.SearchStrategy[Any]]:
    """For each draft field, values of the right JSON type (mostly sensible, sometimes not)."""
    name = st.one_of(st.sampled_from(players), st.text(max_size=6))
    common: dict[str, st.SearchStrategy[Any]] = {
        "n": st.integers(-2, 80),
        "key": st.text(max_size=30),
        "dealer": name,
        "replaces": st.integers(-1, 30),
        "reason": st.one_of(st.text(max_size=40), huge),
    }
    counts = st.dictionaries(name, st.integers(-2, 40), max_size=6)
    if game == "jubileu":
        call = st.sampled_from([c.value for c in ALL_CALLS] + ["", "solo"])
        return {
            **common,
            "ultima": st.sampled_from(SUITS + ["", "x"]),
            "aces": st.dictionaries(name, st.sampled_from([0, 2, 3, 4, 5]), max_size=2),
            "calls": st.lists(st.lists(st.one_of(name, call), min_size=2, max_size=2), max_size=9),
            "direct": st.booleans(),
            "contract": st.fixed_dictionaries({"bid": call, "declarers": st.lists(name, max_size=3)}),
            "trump": st.sampled_from(SUITS + ["nenhum"]),
            "called": st.sampled_from(SUITS),
            "partner": name,
            "tricks": st.dictionaries(name, st.integers(-1, 14), max_size=5),
        }
    if game == "quatrilho":
        return {
            **common,
            "mode": st.sampled_from([m.value for m in Mode] + ["x"]),
            "calls": st.lists(
                st.lists(st.one_of(name, st.sampled_from([c.value for c in QuatrilhoCall])), min_size=2, max_size=2),
                max_size=6,
            ),
            "helper": st.booleans(),
            "declarer": name,
            "called_card": st.fixed_dictionaries(
                {"rank": st.sampled_from(list(SPANISH_RANKS) + ["8", "A"]), "suit": st.sampled_from(SUITS)}
            ),
            "partner": name,
            "exchange": st.booleans(),
            "giver": name,
            "figures": counts,
            "last": name,
            "tricks": counts,
        }
    team_key = st.sampled_from([*samba_flow.COUNTS, *samba_flow.POINTS, "penalties", "mc", "hc", "pen"])
    pile = st.dictionaries(
        st.sampled_from([k.key for k in samba.CARD_KINDS] + list(samba.PENALTY_KINDS) + ["x"]),
        st.integers(-1, 1000),
        max_size=4,
    )
    team = st.dictionaries(team_key, st.one_of(st.integers(-5, 12_000), pile), max_size=9)
    return {
        **common,
        "went_out": st.one_of(name, st.just(samba_flow.STOCK_RAN_OUT)),
        "hidden": st.sampled_from([*samba.HIDDEN, "x"]),
        "teams": st.lists(team, max_size=4),
        "ready": st.booleans(),
    }


def drafts(game: str, players: tuple[str, ...]) -> st.SearchStrategy[str]:
    """The ``d`` parameter: a JSON draft with typed, mistyped and unknown fields, or no JSON at all."""
    typed = typed_draft_fields(game, players)
    fields = {k: st.one_of(v, v, v, json_any) for k, v in typed.items()}
    draft = st.fixed_dictionaries({}, optional={**fields, "zzz": json_any})
    return st.one_of(
        draft.map(lambda d: json.dumps(d, ensure_ascii=False)),
        draft.map(lambda d: json.dumps(d)),
        json_any.map(json.dumps),
        st.text(max_size=40),
        huge,
    )


def actions(game: str) -> st.SearchStrategy[str]:
    """``action=`` values: each kind the game's flow knows, with good and bad arguments."""
    seat = seat_text()
    suit = st.sampled_from(SUITS + ["", "ouro"])
    steps = {"jubileu": jubileu_flow.STEPS, "quatrilho": quatrilho_flow.STEPS, "samba": samba_flow.STEPS}[game]
    back = st.sampled_from(list(steps) + ["x", ""]).map(lambda s: f"back:{s}")
    if game == "jubileu":
        call = st.sampled_from([c.value for c in ALL_CALLS] + ["", "x"])
        known = st.one_of(
            suit.map(lambda s: f"ultima:{s}"),
            st.just("aces:none"),
            st.tuples(seat, st.sampled_from(["3", "4", "5", ""])).map(lambda t: f"aces:{t[0]}:{t[1]}"),
            st.tuples(seat, call).map(lambda t: f"call:{t[0]}:{t[1]}"),
            st.sampled_from(["undo", "direct", "auction", "contract", "tricks"]),
            st.tuples(st.sampled_from(["trump", "called"]), suit).map(lambda t: f"{t[0]}:{t[1]}"),
            seat.map(lambda s: f"partner:{s}"),
            back,
        )
    elif game == "quatrilho":
        known = st.one_of(
            st.sampled_from([m.value for m in Mode] + ["x"]).map(lambda m: f"mode:{m}"),
            st.sampled_from(["helper", "undo", "natural", "exchange", "figures", "tricks", "tricks:1", "tricks:0"]),
            st.tuples(seat, st.sampled_from([c.value for c in QuatrilhoCall] + ["x"])).map(
                lambda t: f"call:{t[0]}:{t[1]}"
            ),
            st.tuples(st.sampled_from(["declarer", "partner", "giver", "last"]), seat).map(lambda t: f"{t[0]}:{t[1]}"),
            st.tuples(st.sampled_from(list(SPANISH_RANKS) + ["8"]), suit).map(lambda t: f"card:{t[0]}:{t[1]}"),
            back,
        )
    else:
        known = st.one_of(st.sampled_from(["check", "live", "back:form"]), back)
    return st.one_of(known, known, known, st.text(max_size=20))


def query_fields(game: str, players: tuple[str, ...]) -> st.SearchStrategy[dict[str, Any]]:
    """The query fields the flows read (steppers, contract buttons, the Samba form), and others."""
    names = ["ultima", "replaces", "bid", "last", "partial", "went_out", "hidden", "zzz"]
    names += [f"t{i}" for i in range(7)] + [f"f{i}" for i in range(6)]
    for i in range(3):
        names += [f"t{i}_{key}" for key in (*samba_flow.COUNTS, *samba_flow.POINTS, "penalties")]
        names += [f"t{i}_{pile}_{kind.key}" for pile in samba_flow.PILES.values() for kind in samba.CARD_KINDS]
        names += [f"t{i}_pen_{kind}" for kind in samba.PENALTY_KINDS]
    value = st.one_of(
        seat_text(), st.sampled_from(SUITS + ["live", "-", *samba.HIDDEN]), st.integers(0, 12_000).map(str), field_value
    )
    single = st.dictionaries(st.one_of(st.sampled_from(names), st.text(min_size=1, max_size=6)), value, max_size=8)
    return st.tuples(single, st.lists(seat_text(), max_size=4)).map(
        lambda t: {**t[0], **({"declarer": t[1]} if t[1] else {})}
    )


# --------------------------------------------------------------------------- valid drafts


def _name_of(seats: list[str], value: Any) -> Any:
    return seats[value] if isinstance(value, int) else value


def valid_draft(
    game: str, players: tuple[str, ...], dealer: str, number: int, variant: int, key: str
) -> dict[str, Any]:
    """A complete draft for the next hand, built from the benchmark templates (valid as is)."""
    if game == "jubileu":
        record = jubileu_hands.render(
            jubileu_hands.TEMPLATES[variant % len(jubileu_hands.TEMPLATES)][1], players, dealer
        )
        draft = {"ultima": record["ultima"], "aces": record.get("aces", {}), "calls": record["auction"]}
        draft.update({k: record[k] for k in ("trump", "called", "partner", "tricks") if k in record})
    elif game == "quatrilho":
        record = quatrilho_hands.render(
            quatrilho_hands.TEMPLATES[variant % len(quatrilho_hands.TEMPLATES)][1], players, dealer
        )
        draft = {k: record[k] for k in ("mode", "declarer", "called_card", "partner", "giver", "tricks") if k in record}
        if "auction" in record:
            draft["calls"] = record["auction"]
        if record["mode"] == "solo_preto":
            draft["exchange"] = "giver" in record
        if "figures" in record:  # the draft keeps the last trick's 3 apart
            figures = dict(record["figures"])
            last = next(n for n, v in figures.items() if v >= 3)
            figures[last] -= 3
            draft.update(figures=figures, last=last)
    else:
        _name, template = samba_hands.TEMPLATES[variant % len(samba_hands.TEMPLATES)]
        out = template["went_out"]
        draft = {"went_out": players[out] if out is not None else samba_flow.STOCK_RAN_OUT, "ready": True, "teams": []}
        for team in template["teams"]:
            entry = {k: team[k] for k in (*samba_flow.COUNTS, *samba_flow.POINTS)}
            penalties = team.get("penalties") or 0
            if isinstance(penalties, list):
                entry["pen"] = {kind: penalties.count(kind) for kind in sorted(set(penalties))}
            elif penalties:
                entry["penalties"] = penalties
            if team.get("hidden_canastra"):
                draft["hidden"] = team["hidden_canastra"]
            draft["teams"].append(entry)
    return {"n": number, "key": key, "dealer": dealer, **draft}


# --------------------------------------------------------------------------- the tests


@examples(600)
@given(data=st.data())
def test_the_new_table_form_never_fails_and_makes_only_tables_the_api_would_make(
    forms: Forms, data: st.DataObject
) -> None:
    game = data.draw(st.sampled_from([*GAME_SLUGS, *GAME_SLUGS, "", "xadrez", "jubileu\x00"]), label="game")
    base = valid_new_table_form(game) if game in GAMES else {}
    keys = sorted(base) + [
        "player_4",
        "player_5",
        "teams",
        "dealer",
        "name",
        "draw_0",
        "draw_1",
        "draw_2",
        "draw_3",
        "csrf_token",
    ]
    dropped = data.draw(st.sets(st.sampled_from(sorted(base) or ["name"]), max_size=4), label="dropped")
    changed = data.draw(
        st.dictionaries(st.one_of(st.sampled_from(keys), st.text(min_size=1, max_size=8)), field_value, max_size=5),
        label="changed",
    )
    form = {**{k: v for k, v in base.items() if k not in dropped}, **changed}
    client = forms.app.test_client()
    response = forms.send("post", "/tables/new", query_string={"game": game}, data=form, client=client)
    if response is None:
        return  # a known bug (conftest.KNOWN_BUGS)
    assert response.status_code < 500
    assert response.status_code in (302, 400, 404, 413, 422), response.status_code
    if response.status_code != 302:
        return
    table_id = response.headers["Location"].rsplit("/t/", 1)[1]
    table = client.get(f"/api/v1/tables/{table_id}").get_json()
    rules = GAMES[game]
    players = table["players"]
    assert rules.min_players <= len(players) <= rules.max_players, table
    assert all(p and p == " ".join(p.split()) and len(p) <= 40 for p in players), players
    assert len({p.casefold() for p in players}) == len(players), players
    # The API takes the very same table (its engine is the judge of both doors).
    again = client.post(
        "/api/v1/tables",
        json={
            "game": game,
            "players": players,
            "dealer": table["next_dealer"],
            "options": table["options"],
            **({"teams": table["teams"]} if game == "samba" else {}),
        },
    )
    assert again.status_code == 201, (table, again.get_json())


@pytest.mark.parametrize("game", GAME_SLUGS)
def test_the_hand_page_never_fails_and_stores_nothing_whatever_the_link(forms: Forms, game: str) -> None:
    table_id = forms.tables[game]
    players = PLAYERS[game]
    draft_values, action_values, extra_values = drafts(game, players), actions(game), query_fields(game, players)

    @examples(450)
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        dealer, number, stored = _table_facts(forms.app, table_id)
        query: dict[str, Any] = dict(data.draw(extra_values, label="fields"))
        choice = data.draw(st.integers(0, 3), label="d")
        if choice == 1:
            query["d"] = data.draw(draft_values, label="draft")
        elif choice >= 2:  # a real draft, as a page would link it
            real = valid_draft(game, players, dealer, number, data.draw(st.integers(0, 8)), "k")
            for name in data.draw(st.sets(st.sampled_from(sorted(real)), max_size=3), label="forgotten"):
                real.pop(name)
            query["d"] = json.dumps(real, ensure_ascii=False)
        action = data.draw(st.one_of(st.none(), action_values), label="action")
        if action is not None:
            query["action"] = action
        response = forms.send("get", f"/t/{table_id}/hand", query_string=query)
        if response is None:
            return  # a known bug (conftest.KNOWN_BUGS)
        assert response.status_code < 500
        # 422: a step the rules refuse (an illegal call in a forged link), said in a sentence.
        assert response.status_code in (200, 400, 404, 413, 414, 422, 431), response.status_code
        assert _table_facts(forms.app, table_id)[2] == stored, "a GET stored a hand"

    run()


@pytest.mark.parametrize("game", GAME_SLUGS)
def test_posting_the_hand_form_stores_only_hands_the_engine_accepts(forms: Forms, game: str) -> None:
    table_id = forms.tables[game]
    players = PLAYERS[game]
    draft_values = drafts(game, players)
    typed = typed_draft_fields(game, players)

    @examples(350)
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        dealer, number, _stored = _table_facts(forms.app, table_id)
        kind = data.draw(st.sampled_from(["valid", "valid", "mutated", "mutated", "garbage"]), label="kind")
        form: dict[str, Any] = {}
        if kind == "garbage":
            form["d"] = data.draw(draft_values, label="draft")
        else:
            n = data.draw(st.sampled_from([number, number, number - 1, number + 1, 0]), label="n")
            key = data.draw(st.sampled_from(["a", "b", "c", "", "new"]), label="key")
            draft = valid_draft(
                game,
                players,
                dealer,
                n,
                data.draw(st.integers(0, 8), label="variant"),
                key + (str(number) if key == "new" else ""),
            )
            if kind == "mutated":
                names = sorted(typed)
                # In a fixed order: a set's order follows the process's string hashes, and drawing the
                # values in it would give every process other examples (and another count of stored hands).
                mutated = data.draw(st.sets(st.sampled_from(names), min_size=1, max_size=3), label="mutated fields")
                for name in sorted(mutated):
                    draft[name] = data.draw(st.one_of(typed[name], json_any), label=name)
            form["d"] = json.dumps(draft, ensure_ascii=False)
        extra = data.draw(
            st.dictionaries(
                st.sampled_from(["all_pass", "renumber", "reason", "zzz"]),
                st.one_of(st.just("1"), field_value),
                max_size=3,
            ),
            label="extra",
        )
        form.update(extra)
        path = f"/t/{table_id}/hand"
        if game == "jubileu" and data.draw(st.integers(0, 4), label="all-pass button") == 0:
            path += "/all-pass"
        response = forms.send("post", path, data=form)
        problems = refused_hands(forms.app, table_id) + ledger_problems(forms.app, table_id)
        assert not problems, problems
        if response is None:
            return  # a known bug (conftest.KNOWN_BUGS)
        assert response.status_code < 500
        assert response.status_code in (302, 400, 404, 409, 413, 422), response.status_code

    run()
    with forms.app.app_context():
        stored = len(ledger.all_hands(ledger.get_table(table_id)))
        db.session.remove()
    assert stored >= 10, f"only {stored} {game} hands were stored: the fuzz hardly reached the write"


def test_a_quatrilho_call_out_of_turn_on_the_hand_page_is_not_a_server_error(forms: Forms) -> None:
    table_id = forms.tables["quatrilho"]
    app = forms.app
    app.config["TESTING"] = False  # answer as production does (a 500 page), not raise
    try:
        statuses = {
            action: forms.client.get(f"/t/{table_id}/hand", query_string={"action": action}).status_code
            for action in ("call:1:passo", "call:0:x", "call:0")
        }
        draft = json.dumps({"calls": [["Ana", "x"], ["Bia", "y"]], "helper": True})
        statuses["two unknown calls"] = forms.client.get(f"/t/{table_id}/hand", query_string={"d": draft}).status_code
    finally:
        app.config["TESTING"] = True
    assert all(status < 500 for status in statuses.values()), statuses


def test_everybody_passed_with_an_ace_holder_is_refused_not_a_server_error(forms: Forms) -> None:
    table_id = forms.tables["jubileu"]
    dealer, number, stored = _table_facts(forms.app, table_id)
    holder = next(p for p in PLAYERS["jubileu"] if p != dealer)
    draft = json.dumps({"n": number, "key": "all-pass-aces", "dealer": dealer, "ultima": "copas", "aces": {holder: 3}})
    app = forms.app
    app.config["TESTING"] = False  # answer as production does (a 500 page), not raise
    try:
        statuses = [
            forms.client.post(f"/t/{table_id}/hand/all-pass", data={"d": draft, "all_pass": "1"}).status_code,
            forms.client.post(f"/t/{table_id}/hand", data={"d": draft, "all_pass": "1"}).status_code,
        ]
    finally:
        app.config["TESTING"] = True
    assert _table_facts(forms.app, table_id)[2] == stored  # nothing stored either way
    assert statuses == [422, 422], statuses


def test_a_name_with_a_nul_character_on_the_form_is_never_a_server_error(forms: Forms) -> None:
    app = forms.app
    app.config["TESTING"] = False  # answer as production does (a 500 page), not raise
    try:
        client = app.test_client()
        statuses = {
            field: client.post(
                "/tables/new?game=jubileu", data={**valid_new_table_form("jubileu"), field: "A\x00na"}
            ).status_code
            for field in ("player_0", "name")
        }
    finally:
        app.config["TESTING"] = True
    assert all(status < 500 for status in statuses.values()), statuses


def test_forged_drafts_huge_numbers_and_far_dates_on_the_pages_are_never_server_errors(forms: Forms) -> None:
    """A draft is JSON in a link: it may hold a lone surrogate (written \\ud800) or be nested
    thousands deep; a path or query may hold a number no database column does."""
    table_id = forms.tables["jubileu"]
    dealer, number, stored = _table_facts(forms.app, table_id)
    real = json.dumps(valid_draft("jubileu", PLAYERS["jubileu"], dealer, number, 0, "forged"))
    drafts = {
        "lone surrogate in the reason": real[:-1] + ', "reason": "\\udc00"}',
        "lone surrogate as the dealer": real.replace(json.dumps(dealer), '"\\ud800"'),
        "NUL in the reason": real[:-1] + ', "reason": "\\u0000"}',
        "deep array": "[" * 30000,
        "deep object": '{"n":' * 12000,
    }
    app = forms.app
    app.config["TESTING"] = False  # answer as production does (a 500 page), not raise
    try:
        statuses = {}
        for name, draft in drafts.items():
            statuses[f"GET {name}"] = forms.client.get(f"/t/{table_id}/hand", query_string={"d": draft}).status_code
            statuses[f"POST {name}"] = forms.client.post(f"/t/{table_id}/hand", data={"d": draft}).status_code
        for big in (2**31, 10**20):
            statuses[f"void {big}"] = forms.client.get(f"/t/{table_id}/hands/{big}/void").status_code
            statuses[f"undo {big}"] = forms.client.post(f"/t/{table_id}/hands/{big}/undo").status_code
            statuses[f"player {big}"] = forms.client.get(f"/players/{big}").status_code
            statuses[f"season {big}"] = forms.client.get("/league/jubileu", query_string={"season": big}).status_code
        statuses["far night"] = forms.client.get("/night", query_string={"date": "9999-12-31"}).status_code
    finally:
        app.config["TESTING"] = True
    assert all(status < 500 for status in statuses.values()), statuses
    assert _table_facts(forms.app, table_id)[2] == stored, "a forged draft stored a hand"


#: Text no column can hold, as a form or a query carries it (a browser sends a lone surrogate
#: only as the replacement character; JSON can write one, see the drafts above).
BROKEN_TEXTS = ("A\x00na", "\x00", "Bia\x00\x00")


def test_every_form_and_query_with_a_nul_is_refused_not_a_server_error(forms: Forms) -> None:
    """Each form of the app, the club's and the table's, with a NUL in a text field, sent by a
    phone allowed to send it: a 400 with a sentence, never a 5xx, nothing stored (on PostgreSQL
    a NUL in a text column is a server error). A phone not allowed is refused first, as ever."""
    app = forms.app
    table_id = forms.tables["jubileu"]
    stored = _table_facts(app, table_id)[2]
    app.config["TESTING"] = False  # answer as production does (a 500 page), not raise
    try:
        boss = app.test_client()
        assert boss.post("/club", data={"code": app.config["CLUB_CODE"]}).status_code == 302
        scorer = forms.client
        statuses = {}
        for text in BROKEN_TEXTS:
            posts = {
                "season": (boss, "/league/seasons", {"name": text, "starts_on": "2026-01-01", "ends_on": "2026-02-01"}),
                "championship": (boss, "/c/new", {"name": text, "game": "quatrilho"}),
                "club code": (boss, "/club", {"code": text}),
                "join code": (boss, "/join", {"code": text}),
                "scoring link label": (scorer, f"/t/{table_id}/share/link", {"label": text}),
                "new table": (scorer, "/tables/new?game=jubileu", {**valid_new_table_form("jubileu"), "name": text}),
                "hand draft": (scorer, f"/t/{table_id}/hand", {"d": "{}", "reason": text}),
            }
            for name, (client, path, form) in posts.items():
                statuses[f"{name} {text!r}"] = client.post(path, data=form).status_code
            for query in ({"q": text}, {"season": text}, {"d": text}):
                statuses[f"query {query!r}"] = boss.get("/players", query_string=query).status_code
            statuses[f"path {text!r}"] = boss.get(f"/t/{text}").status_code
    finally:
        app.config["TESTING"] = True
    assert {name: status for name, status in statuses.items() if status != 400} == {}
    assert _table_facts(app, table_id)[2] == stored
