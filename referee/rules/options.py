"""House-rule options described as data.

Each game lists its options as :class:`OptionSpec` values: the API validates posted options
against them, the table form renders them (label, one-line help, choices) and the chosen reading
is the ``default``; ``rule_ref`` names the section of docs/rules.md that explains it. One
description serves the engine, the API and the page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, ClassVar, Final, Self

from .errors import InvalidInput
from .text import N_, Text

OptionValue = bool | int | str


@dataclass(frozen=True, kw_only=True)
class Choice:
    value: str
    label: Text


@dataclass(frozen=True, kw_only=True)
class OptionSpec:
    """One house rule: its API name, kind, default and the words that explain it."""

    name: str
    kind: str  # "bool" | "choice" | "int" | "money"
    default: OptionValue
    label: Text
    help: Text
    choices: tuple[Choice, ...] = ()
    minimum: int = 0
    maximum: int = 1_000_000
    rule_ref: str = ""

    def parse(self, raw: object) -> OptionValue:
        """The value as the engine uses it, or :class:`InvalidInput` with a sentence."""
        field = f"options.{self.name}"
        if self.kind == "bool":
            if isinstance(raw, bool):
                return raw
            raise InvalidInput(
                Text(N_('Option "%(label)s" (%(name)s) takes true or false.'), label=self.label, name=self.name),
                field=field,
            )
        if self.kind == "choice":
            allowed = [c.value for c in self.choices]
            if isinstance(raw, str) and raw in allowed:
                return raw
            raise self.not_one_of(allowed)
        if self.kind == "int":
            if isinstance(raw, int) and not isinstance(raw, bool) and self.minimum <= raw <= self.maximum:
                return raw
            raise InvalidInput(
                Text(
                    N_('Option "%(label)s" (%(name)s) takes a whole number from %(low)s to %(high)s.'),
                    label=self.label,
                    name=self.name,
                    low=self.minimum,
                    high=self.maximum,
                ),
                field=field,
            )
        if self.kind == "money":
            return parse_money(raw, field=field, name=self.name, label=self.label)
        raise AssertionError(f"unknown option kind {self.kind}")

    def not_one_of(self, values: Sequence[str]) -> InvalidInput:
        """The refusal of a value outside ``values``, naming the option by its label as players
        read it on the table form (a game's own narrower check says it the same way)."""
        return InvalidInput(
            Text(
                N_('Option "%(label)s" (%(name)s) takes one of: %(values)s.'),
                label=self.label,
                name=self.name,
                values=", ".join(values),
            ),
            field=f"options.{self.name}",
        )


def parse_money(raw: object, *, field: str, name: str, label: Text) -> str:
    """Money travels as a decimal string ("0.50"); it is never a float, so cents stay exact."""
    if isinstance(raw, str):
        try:
            value = Decimal(raw.strip().replace(",", "."))
        except InvalidOperation:
            value = Decimal(-1)
        if value.is_finite() and Decimal(0) <= value <= Decimal(1_000_000) and value == value.quantize(Decimal("0.01")):
            return format(value.quantize(Decimal("0.01")) if value != value.to_integral() else value.to_integral(), "f")
    raise InvalidInput(
        Text(
            N_('Option "%(label)s" (%(name)s) takes an amount of money such as "0.50" (at most two decimals).'),
            label=label,
            name=name,
        ),
        field=field,
    )


def parse_options(specs: Sequence[OptionSpec], raw: object) -> dict[str, OptionValue]:
    """Every option with its value, defaults filled in. Unknown names are refused, not ignored."""
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise InvalidInput(Text(N_("Options must be an object of name and value.")), field="options")
    by_name = {spec.name: spec for spec in specs}
    for name in raw:
        if name not in by_name:
            raise InvalidInput(Text(N_("There is no option called %(name)s."), name=str(name)), field=f"options.{name}")
    return {spec.name: spec.parse(raw[spec.name]) if spec.name in raw else spec.default for spec in specs}


class _FromSpec:
    """The marker :func:`from_spec` leaves on an options field until its class is made."""


_FROM_SPEC: Final = _FromSpec()


def from_spec() -> Any:
    """An options field's default: its spec's ``default``, filled in when the class is made
    (:meth:`OptionSet.__init_subclass__`), so that each default is written once, in the spec."""
    return _FROM_SPEC


class OptionSet:
    """What every game's options class does the same way: read posted options against the
    game's :class:`OptionSpec` list (``specs``) and write every option back out.

    A game's options are a frozen dataclass that subclasses this, names its ``specs`` and has
    one field per spec, typed and defaulted by :func:`from_spec` (``stake: int = from_spec()``):
    the typed field is what the game's code reads, the spec says the rest. A game with a rule
    across options (Samba's allowed top minimum, Quatrilho's Timbó preset) overrides :meth:`checked`."""

    specs: ClassVar[tuple[OptionSpec, ...]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Before ``@dataclass`` reads the class: every spec has its field, every field its
        spec, and a field marked :func:`from_spec` takes the spec's default."""
        super().__init_subclass__(**kwargs)
        by_name = {spec.name: spec for spec in cls.specs}
        fields = [name for name in cls.__dict__.get("__annotations__", {}) if name != "specs"]
        if sorted(fields) != sorted(by_name):
            raise TypeError(f"{cls.__name__}'s fields {fields} are not its specs {list(by_name)}")
        for name in fields:
            if cls.__dict__.get(name) is _FROM_SPEC:
                setattr(cls, name, by_name[name].default)

    @classmethod
    def from_json(cls, raw: object) -> Self:
        """Options as posted (unknown names and bad values refused), defaults filled in."""
        return cls(**cls.checked(parse_options(cls.specs, raw), raw))

    @classmethod
    def checked(cls, values: dict[str, OptionValue], raw: object) -> dict[str, OptionValue]:
        """The parsed values after the game's own checks across options (none by default)."""
        return values

    def to_json(self) -> dict[str, OptionValue]:
        return {spec.name: getattr(self, spec.name) for spec in self.specs}


#: The money one chip (or unit) is worth: the same option in every game settled in chips.
CHIP_VALUE: Final = OptionSpec(
    name="chip_value",
    kind="money",
    default="0",
    label=Text(N_("Money per chip")),
    help=Text(N_("Zero means chips only.")),
)

#: The chips each player is shown to start with (display only).
STARTING_CHIPS: Final = OptionSpec(
    name="starting_chips",
    kind="int",
    default=0,
    minimum=0,
    maximum=100_000,
    label=Text(N_("Chips each player starts with")),
    help=Text(N_("Only for display: balances are always counted from zero.")),
)
