"""Locale selection and locale-aware number helpers for templates.

The language is the `lang` cookie (set by /lang/<code>), else pt_BR. A view may force a locale
for one request (e.g. a table's own language) by setting `g.locale` before rendering.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from babel import Locale
from babel.numbers import format_currency, format_decimal, get_group_symbol
from flask import Flask, current_app, g, request
from flask_babel import force_locale, format_date, format_datetime, get_locale, get_translations, gettext
from markupsafe import Markup

from referee.rules.text import Text

MINUS = "\u2212"  # a real minus sign, not a hyphen
LANG_COOKIE = "lang"


def select_locale() -> str:
    languages: list[str] = current_app.config["LANGUAGES"]
    forced = g.get("locale")
    if forced in languages:
        return str(forced)
    cookie = request.cookies.get(LANG_COOKIE)
    if cookie in languages:
        return str(cookie)
    return str(current_app.config["BABEL_DEFAULT_LOCALE"])


@functools.lru_cache(maxsize=8)
def _parsed(locale: str) -> Locale:
    """A locale parsed once per process: Babel's parsing looks for the locale's data file on
    disk every time."""
    return Locale.parse(locale)


@contextmanager
def in_locale(locale: str) -> Iterator[None]:
    """Flask-Babel's ``force_locale``, paid once: nothing to do when ``locale`` is already the
    current one (an API answer rendered inside the request that switched to its table's
    language), and the locale is parsed once per process."""
    wanted = _parsed(locale)
    if get_locale() == wanted:
        yield
        return
    with force_locale(wanted):
        yield


def _locale() -> str:
    return str(get_locale() or current_app.config["BABEL_DEFAULT_LOCALE"])


@functools.lru_cache(maxsize=16)
def _group_symbol(locale: str) -> str:
    return str(get_group_symbol(locale))


def isolate(name: object) -> str:
    """A name for plain text (the summary pasted in a chat) between FIRST STRONG ISOLATE and
    POP DIRECTIONAL ISOLATE: whatever the name holds (a right-to-left override stored before
    names were cleaned, Arabic letters) stays inside it and cannot turn the sentence around it."""
    return f"\u2068{name}\u2069"


def bdi(name: object) -> Markup:
    """A name for a page, in ``<bdi>`` (the HTML twin of :func:`isolate`), escaped; pass it as a
    sentence's argument (``payer=p.payer|bdi``) so the sentence keeps its order."""
    return Markup("<bdi>%s</bdi>") % name


def fmt_int(n: int) -> str:
    """1234 -> "1.234" (pt_BR) / "1,234" (en); negatives with a real minus sign.

    Python's own grouping with the locale's separator: the same text as Babel's format_decimal
    for the app's languages (a test compares them), without parsing the locale again for each of
    the thousands of numbers a championship's ranking prints."""
    text = f"{abs(int(n)):,}".replace(",", _group_symbol(_locale()))
    return f"{MINUS}{text}" if n < 0 else text


def fmt_signed(n: int) -> str:
    """Signed display: "+3", "−3", "0"."""
    if n > 0:
        return "+" + fmt_int(n)
    return fmt_int(n)


def fmt_money(value: Decimal | str | int) -> str:
    """A decimal amount (Decimal or decimal string) in BRL for the current locale: "R$ 1.234,50"."""
    try:
        amount = value if isinstance(value, Decimal) else Decimal(str(value))
    except InvalidOperation as exc:
        raise ValueError(f"not a decimal amount: {value!r}") from exc
    text = format_currency(abs(amount), "BRL", locale=_locale())
    return f"{MINUS}{text}" if amount < 0 else text


def fmt_decimal(value: float, digits: int = 2) -> str:
    """A fraction for reading ("0,67", "−1,50"), with a real minus sign like :func:`fmt_int`."""
    pattern = "#,##0." + "0" * digits if digits else "#,##0"
    text = format_decimal(abs(value), format=pattern, locale=_locale())
    return f"{MINUS}{text}" if value < 0 and text.strip("0,.") else text


def fmt_percent(rate: float | Fraction) -> str:
    """A rate between 0 and 1 as a whole percentage ("67%"): a win rate."""
    return f"{fmt_decimal(100 * float(rate), 0)}%"


def fmt_minutes(minutes: int) -> str:
    """A length of time for the session clock: "45 min", "2 h", "1 h 30 min"."""
    hours, rest = divmod(max(0, int(minutes)), 60)
    if not hours:
        return gettext("%(m)s min", m=rest)
    if not rest:
        return gettext("%(h)s h", h=hours)
    return gettext("%(h)s h %(m)s min", h=hours, m=rest)


def init_app(app: Flask) -> None:
    app.jinja_env.filters.update(
        bdi=bdi, fmt_int=fmt_int, fmt_signed=fmt_signed, fmt_money=fmt_money, fmt_minutes=fmt_minutes
    )
    app.jinja_env.globals.update(
        bdi=bdi,  # also as a function: referee.settleup.chips_left_sentence's mark
        fmt_minutes=fmt_minutes,
        fmt_int=fmt_int,
        fmt_signed=fmt_signed,
        fmt_money=fmt_money,
        get_locale=get_locale,
        format_datetime=format_datetime,
        format_date=format_date,
        fmt_decimal=fmt_decimal,
        fmt_percent=fmt_percent,
        render_text=render_text,
    )


def render_text(text: Text) -> str:
    """A sentence from the rules engine in the current language (see referee.rules.text)."""
    translations = get_translations()
    return text.render(translations.gettext, translations.ngettext)
