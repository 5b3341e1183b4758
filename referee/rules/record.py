"""A hand record's fields, declared once: what the API accepts, checked and documented from one list.

Every game's hand record is a JSON object of a few kinds of field: a seated player, a whole
number with bounds, one of a few words, yes or no, a suit, the order players went out in, a
count per player. A game declares its record as a :class:`RecordSpec` of such fields, and from
that one declaration come

- the shape half of parsing (:meth:`RecordSpec.read`): a JSON object, no unknown field, the
  table's size, each field's type and bounds, required fields present, names seated; one kind
  of error for one kind of mistake in every game (a wrong type or a missing field is
  :class:`InvalidInput`, a number out of bounds :class:`InconsistentHand`, a stranger
  :class:`UnknownPlayer`, a table of the wrong size :class:`RulesError`);
- the record's JSON schema for the API's OpenAPI document (:meth:`RecordSpec.json_schema`),
  with a worked example that a test parses;
- the checks a built record makes on itself (:meth:`RecordSpec.check_built`), so that a hand
  object cannot hold a stranger or a count out of bounds however it was made.

What a field cannot say (an auction's sequence, a race, melds) is a :class:`Custom` field: the
game gives its schema and reads it in its own parser. The game's parser then works on values
that already have the right shape, and checks only what the rules say.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property
from typing import Any, ClassVar, Self, TypeVar, cast

from .cards import Suit
from .errors import InconsistentHand, InvalidInput, RulesError, reject_unknown_fields
from .seats import NAME_MAX, OutGroup, out_order_json, require_counts, require_player
from .text import N_, NP_, Text

Json = dict[str, Any]
R = TypeVar("R")


@dataclass(frozen=True, kw_only=True)
class Field:
    """One field of a record. ``required`` is the sentence that asks for it when it is missing
    (``None`` or absent); an optional field has none. ``doc`` describes it in the API document."""

    name: str
    doc: str = ""
    required: str | None = None

    def read(self, value: object, *, players: Sequence[str]) -> Any:
        """The value, checked for its shape (never ``None``: a missing field is not read)."""
        return value

    def schema(self) -> Json:
        return {}

    def documented(self) -> Json:
        out = self.schema()
        if self.doc:
            out["description"] = self.doc
        return out

    def check_built(self, value: object, *, players: Sequence[str]) -> None:
        """What a built record's attribute of this name must satisfy (see :meth:`RecordSpec.check_built`)."""

    def dump(self, value: object) -> object:
        """A built record's attribute of this name as its JSON (see :meth:`Record.to_json`): a
        word for an Enum member (a choice, a suit), a plain object for a mapping."""
        if isinstance(value, Enum):
            return value.value
        if isinstance(value, Mapping):
            return dict(value)
        return value

    def missing(self, raw: Mapping[str, object]) -> RulesError:
        """The error for this required field left out or null (``raw``: the whole record), its
        ``required`` sentence. A field whose sentence names what it expects, or that tells a null
        from a field left out, says so here."""
        return InvalidInput(Text(self.required or ""), field=self.name)


@dataclass(frozen=True, kw_only=True)
class Player(Field):
    """A seated player, by name."""

    def read(self, value: object, *, players: Sequence[str]) -> str:
        return require_player(players, value, field=self.name)

    def schema(self) -> Json:
        return name_schema()

    def check_built(self, value: object, *, players: Sequence[str]) -> None:
        require_player(players, value, field=self.name)


@dataclass(frozen=True, kw_only=True)
class Count(Field):
    """A whole number from ``low`` to ``high``. ``sentence`` refuses what is not a whole number
    (:class:`InvalidInput`); ``bounds`` refuses one out of range (:class:`InconsistentHand`, the
    number as ``%(value)s``). Without ``bounds``, ``sentence`` refuses both (``%(max)s`` is ``high``)."""

    low: int = 0
    high: int
    sentence: str
    bounds: str | None = None

    def read(self, value: object, *, players: Sequence[str]) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidInput(Text(self.sentence, max=self.high), field=self.name)
        if not self.low <= value <= self.high:
            if self.bounds is None:
                raise InvalidInput(Text(self.sentence, max=self.high), field=self.name)
            raise InconsistentHand(Text(self.bounds, value=value), field=self.name)
        return value

    def schema(self) -> Json:
        return {"type": "integer", "minimum": self.low, "maximum": self.high}

    def check_built(self, value: object, *, players: Sequence[str]) -> None:
        self.read(value, players=players)


@dataclass(frozen=True, kw_only=True)
class Choice(Field):
    """One of a few words; ``sentence`` (with ``%(value)s``) refuses any other."""

    values: tuple[str, ...]
    sentence: str

    def read(self, value: object, *, players: Sequence[str]) -> str:
        if not isinstance(value, str) or value not in self.values:
            raise InvalidInput(Text(self.sentence, value=str(value)), field=self.name)
        return value

    def schema(self) -> Json:
        return {"type": "string", "enum": list(self.values)}

    def check_built(self, value: object, *, players: Sequence[str]) -> None:
        # A built record may hold the word as a member of the game's Enum (Injun's System).
        self.read(value.value if isinstance(value, Enum) else value, players=players)


@dataclass(frozen=True, kw_only=True)
class Flag(Field):
    """Yes or no (JSON true or false); ``sentence`` refuses anything else."""

    sentence: str

    def read(self, value: object, *, players: Sequence[str]) -> bool:
        if not isinstance(value, bool):
            raise InvalidInput(Text(self.sentence), field=self.name)
        return value

    def schema(self) -> Json:
        return {"type": "boolean"}


@dataclass(frozen=True, kw_only=True)
class SuitField(Field):
    """A suit, by its English name; ``sentence`` (with ``%(value)s``) refuses any other."""

    sentence: str

    def read(self, value: object, *, players: Sequence[str]) -> Suit:
        suit = Suit.named(value)
        if suit is None:
            raise InvalidInput(Text(self.sentence, value=str(value)), field=self.name)
        return suit

    def schema(self) -> Json:
        return {"type": "string", "enum": [suit.value for suit in Suit]}


@dataclass(frozen=True, kw_only=True)
class PerPlayer(Field):
    """A whole number for players by name (tricks, figures, chips); ``what`` names the count in
    the sentences. Every seated player unless ``every`` is false; the game checks totals."""

    high: int
    what: str
    every: bool = True

    def read(self, value: object, *, players: Sequence[str]) -> dict[str, int]:
        return require_counts(
            players, value, field=self.name, total=None, maximum=self.high, what=Text(self.what), required=self.every
        )

    def schema(self) -> Json:
        return {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0, "maximum": self.high}}


@dataclass(frozen=True, kw_only=True)
class Custom(Field):
    """What the kinds above cannot say (an auction, a race, a team's melds, the order of going
    out): the game gives its JSON schema and reads the value in its own parser."""

    json: Json = field(default_factory=dict)

    def schema(self) -> Json:
        return dict(self.json)


@dataclass(frozen=True, kw_only=True)
class OutOrder(Field):
    """The order players went out in, first out first: a name, or a list of names for players
    who went out on the same trick. The game reads it (it knows who may be left out)."""

    DOC: ClassVar[str] = (
        "The players in the order they went out, first out first; a list for players who went out on the same trick."
    )

    def schema(self) -> Json:
        name = name_schema()
        return {"type": "array", "items": {"oneOf": [name, {"type": "array", "items": name, "minItems": 1}]}}

    def dump(self, value: object) -> object:
        return out_order_json(cast(Sequence[OutGroup], value))


#: The dealer, in every game's record: left out, the rotation's dealer.
DEALER = Player(name="dealer", doc="Default: the dealer by rotation.")


def name_schema() -> Json:
    return {"type": "string", "minLength": 1, "maxLength": NAME_MAX}


@dataclass(frozen=True, kw_only=True)
class RecordSpec:
    """A game's hand record: its fields in the order they are checked, the sentence for an
    unknown field (``%(name)s``: the game's own word for a hand; ``%(game)s``, if it needs it,
    is :attr:`game`), the table sizes the game is played at, and an example for the API
    document (``example_players`` seated in order, the last one dealing)."""

    game: str
    fields: tuple[Field, ...]
    unknown: str
    player_counts: tuple[int, ...]
    example: Mapping[str, object]
    example_players: tuple[str, ...]
    doc: str = ""
    #: Fields the parser accepts that carry no value of their own (none yet); they are known, not read.
    extra_known: tuple[str, ...] = ()
    #: What the fields alone cannot say of the whole record, for the schema only (the game's
    #: parser checks it with its own sentences): e.g. ``{"anyOf": [{"required": ["won"]}, ...]}``.
    schema_extra: Mapping[str, object] = field(default_factory=dict)

    WRONG_SIZE: ClassVar[tuple[str, str]] = NP_(
        "%(game)s is played by %(players)s player, not %(given)s.",
        "%(game)s is played by %(players)s players, not %(given)s.",
    )

    @cached_property
    def names(self) -> frozenset[str]:
        return frozenset(f.name for f in self.fields) | frozenset(self.extra_known)

    def check_table(self, players: Sequence[str]) -> None:
        """A table of a size the game is not played at (:class:`RulesError`, the same sentence
        whether the table is being seated or a record is judged on its own)."""
        if len(players) not in self.player_counts:
            raise RulesError(
                Text(
                    *self.WRONG_SIZE,
                    game=self.game,
                    players=counts_text(self.player_counts),
                    given=len(players),
                    count=self.player_counts[-1],
                ),
                field="players",
            )

    def read(self, raw: object, *, players: Sequence[str], only: Collection[str] | None = None) -> dict[str, Any]:
        """The record's fields, each checked for its shape; fields left out (or ``null``) are
        absent from the answer. Refuses a non-object, an unknown field, a table of the wrong
        size, and the first field that is missing or malformed, in the declared order.

        ``only`` reads just those fields, for a game whose rules between fields must be checked
        before a later field's shape (a guided page asks for the field the first complaint
        names): it reads the rest itself, or in a second call."""
        if not isinstance(raw, Mapping):
            raise InvalidInput(Text(N_("A hand must be a JSON object.")))
        if not self.names.issuperset(raw):
            reject_unknown_fields(raw, self.names, self.unknown, game=self.game)
        if len(players) not in self.player_counts:
            self.check_table(players)
        values: dict[str, Any] = {}
        for spec in self.fields:
            if only is not None and spec.name not in only:
                continue
            value = raw.get(spec.name)
            if value is None:
                if spec.required is not None:
                    raise spec.missing(raw)
                continue
            values[spec.name] = spec.read(value, players=players)
        return values

    def check_built(self, record: object) -> None:
        """A built record checks its own fields (``record.players`` is its table): each
        attribute named like a field satisfies that field. Called from ``__post_init__``."""
        players = getattr(record, "players", ())
        for spec in self.fields:
            value = getattr(record, spec.name, None)
            if value is not None:
                spec.check_built(value, players=players)

    def json_schema(self) -> Json:
        """The record's JSON schema for the OpenAPI document."""
        schema: Json = {"type": "object"}
        required = [f.name for f in self.fields if f.required is not None]
        if required:
            schema["required"] = required
        schema.update(self.schema_extra)
        if self.doc:
            schema["description"] = self.doc
        schema["properties"] = {f.name: f.documented() for f in self.fields}
        schema["additionalProperties"] = False
        schema["examples"] = [dict(self.example)]
        return schema


def counts_text(counts: Sequence[int]) -> Text:
    """How many play, in words: "exactly 4", "4 to 6", or a list when the counts have gaps."""
    if len(counts) == 1:
        return Text(N_("exactly %(n)s"), n=counts[0])
    if list(counts) == list(range(counts[0], counts[-1] + 1)):
        return Text(N_("%(low)s to %(high)s"), low=counts[0], high=counts[-1])
    return Text(N_("%(some)s or %(last)s"), some=", ".join(str(n) for n in counts[:-1]), last=counts[-1])


_READ_BY_PARSER: ContextVar[bool] = ContextVar("read_by_parser", default=False)


def read_by_parser(parse: Callable[..., R], *args: Any, **kwargs: Any) -> R:
    """``parse(*args, **kwargs)``, a game's parser: the records it builds, whose fields it has
    just read and checked (:meth:`referee.rules.game.Game.parse_hand`), skip their field checks;
    their invariants still run."""
    token = _READ_BY_PARSER.set(True)
    try:
        return parse(*args, **kwargs)
    finally:
        _READ_BY_PARSER.reset(token)


class Record:
    """A hand record that checks itself when built: a subclass names its :data:`spec` and gets a
    ``__post_init__`` that runs :meth:`check`: its fields by :meth:`RecordSpec.check_built`, then
    the game's own invariants, which a game adds by overriding :meth:`check` (calling
    ``super().check()``). A record built by hand, by a test or by a strategy fails at once. One
    built by the game's parser skips only the field checks, which the parser made as it read
    the record; the game's invariants always run."""

    spec: ClassVar[RecordSpec]

    def __post_init__(self) -> None:
        self.check()

    def check(self) -> None:
        if not _READ_BY_PARSER.get():
            self.spec.check_built(self)

    @classmethod
    def parsed(
        cls, raw: object, *, players: Sequence[str], options: object, dealer: str, teams: Sequence[Sequence[str]] = ()
    ) -> Self:
        """The plainest parser, for a record whose attributes are its fields as read: the
        fields checked for their shape (:meth:`RecordSpec.read`), the rotation's ``dealer``
        where the record names none. A game whose rules check more across fields writes its own
        ``parse_hand`` (and may still start from :meth:`RecordSpec.read`)."""
        values = cls.spec.read(raw, players=players)
        seated = tuple(players)
        values["dealer"] = values.get("dealer") or require_player(seated, dealer, field="dealer")
        built: Self = cast(Any, cls)(players=seated, **values)
        return built

    def to_json(self) -> dict[str, object]:
        """The record as stored and exported: every field of :attr:`spec` that holds a value, in
        the declared order, each as its field writes it (:meth:`Field.dump`). A game whose
        attributes are not its fields one for one (a derived field, a nested record) overrides it."""
        out: dict[str, object] = {}
        for spec in self.spec.fields:
            value = getattr(self, spec.name, None)
            if value is not None:
                out[spec.name] = spec.dump(value)
        return out

    def fields_json(self) -> dict[str, object]:
        """What was played, as the API's answer and the history show it: every field but the
        dealer, ``None`` where the record holds nothing (every key present)."""
        out: dict[str, object] = {}
        for spec in self.spec.fields:
            if spec.name != "dealer":
                value = getattr(self, spec.name, None)
                out[spec.name] = None if value is None else spec.dump(value)
        return out
