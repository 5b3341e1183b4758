"""Pix keys and static Pix BR Codes ("copia e cola") for settle-up transfers.

A payer pays a transfer by scanning a QR code with his bank app, or by pasting its text. That
text is a BR Code: EMV QRCPS-MPM fields, each an ID (2 digits), a length (2 digits) and a
value, ending in a CRC16-CCITT-FALSE, as laid down in the Banco Central's "Manual de Padrões
para Iniciação do Pix". Only static codes are made here (the key and the amount are in the
code itself; no PSP, no network), because the club has no payment provider behind it.

Everything here is a pure function of its arguments. Refusals are :class:`RulesError` with one
sentence the club can act on, so a form shows it next to the field and nothing is stored.

Decisions, stated once:

- **Which key is it.** An ``@`` makes an e-mail; a UUID (with or without its hyphens) a random
  key (EVP); a ``+`` or a parenthesis a mobile number; the CPF mask ``000.000.000-00`` a CPF;
  fourteen characters a CNPJ. Eleven bare digits are ambiguous (a CPF, or an area code and a
  mobile number): valid CPF check digits make it a CPF, anything else is read as a mobile
  number. A wrong guess cannot send money to a stranger unnoticed, because the bank app shows
  the key's owner before the payer confirms (the template says to check).
- **Phone keys** are Brazilian mobile numbers, stored as the DICT writes them:
  ``+55`` + area code (DDD, one that exists) + nine digits starting with 9.
- **CNPJ** keys may be alphanumeric (the Receita's format issued since July 2026): twelve
  characters 0-9/A-Z and two check digits, computed as for the numeric CNPJ with each
  character worth its ASCII code minus 48.
- **Field 01** (point of initiation) is left out: a static code without it may be paid more
  than once, which is what a payer needs if his first attempt fails; "12" would forbid that,
  and the manual's own static example omits the field.
- **Name and city** (fields 59 and 60) become plain printable ASCII, accents stripped, cut to
  25 and 15 characters. Bank apps show the name the DICT holds for the key, not field 59, so a
  name with nothing left (all emoji, say) becomes ``RECEBEDOR`` rather than hiding the code;
  an empty city becomes ``SAO PAULO``, the city whose clock the league already keeps
  (America/Sao_Paulo): the field is mandatory and no bank checks it.
- **Amounts** are in whole cents: a Pix cannot carry a fraction of a cent, and rounding would
  make the code ask for an amount other than the one on the page, so the caller rounds.
"""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal
from typing import TypeAlias

from markupsafe import Markup

from referee.qr import svg
from referee.rules.errors import RulesError
from referee.rules.text import N_, Text

#: The Pix arrangement's globally unique identifier inside field 26.
GUI = "br.gov.bcb.pix"
#: Field 62-05 when the receiver gives no transaction id (the manual's "***").
NO_TXID = "***"
NAME_MAX = 25
CITY_MAX = 15
EMAIL_MAX = 77
TXID_MAX = 25
AMOUNT_MAX_CHARS = 13
DEFAULT_NAME = "RECEBEDOR"
DEFAULT_CITY = "SAO PAULO"

#: Area codes (DDD) in use in Brazil (Anatel).
DDDS = frozenset(
    [*range(11, 20), 21, 22, 24, 27, 28, 31, 32, 33, 34, 35, 37, 38, *range(41, 50), 51, 53, 54, 55]
    + [*range(61, 70), 71, 73, 74, 75, 77, 79, *range(81, 90), *range(91, 100)]
)

#: EMV templates: their value is itself a list of ID-length-value fields.
_TEMPLATES = frozenset([*(f"{n:02d}" for n in range(26, 52)), "62", "64", *(f"{n:02d}" for n in range(80, 100))])

_EMAIL = re.compile(
    r"[a-z0-9.!#$&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+"
)
_UUID = re.compile(r"[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}")
_CPF_MASK = re.compile(r"[0-9]{3}\.[0-9]{3}\.[0-9]{3}-[0-9]{2}")
_SEPARATORS = re.compile(r"[\s.\-/()]")
_TXID = re.compile(rf"[A-Za-z0-9]{{1,{TXID_MAX}}}")
_CNPJ = re.compile(r"[0-9A-Z]{12}[0-9]{2}")
#: Typographic characters that have a plain ASCII twin (NFKD leaves them alone).
_ASCII_TWINS = str.maketrans(
    {
        "‘": "'",
        "’": "'",
        "‚": "'",
        "“": '"',
        "”": '"',
        "„": '"',
        "–": "-",
        "—": "-",
        "ß": "ss",
        "Æ": "AE",
        "æ": "ae",
        "Œ": "OE",
        "œ": "oe",
        "Ø": "O",
        "ø": "o",
        "Ł": "L",
        "ł": "l",
        "Đ": "D",
        "đ": "d",
    }
)


def _digits(text: str) -> bool:
    """ASCII digits only (str.isdigit also accepts "²" and other scripts' digits)."""
    return text.isascii() and text.isdigit()


_KINDS = N_("Use an e-mail, a mobile number with its area code, a CPF, a CNPJ or a random key.")


def _refuse(text: Text, field: str = "pix_key") -> RulesError:
    return RulesError(text, field=field)


# --------------------------------------------------------------------------- keys


def normalize_key(raw: str) -> str:
    """A Pix key as the DICT writes it, whatever its kind; idempotent, so a stored key passes.

    >>> normalize_key("123.456.789-09"), normalize_key("(11) 98765-4321")
    ('12345678909', '+5511987654321')
    """
    text = raw.strip()
    if not text:
        raise _refuse(Text(N_("Type a Pix key. %(kinds)s"), kinds=Text(_KINDS)))
    if "@" in text:
        return _email(text)
    if _UUID.fullmatch(text.lower()):
        hexa = text.lower().replace("-", "")
        return f"{hexa[:8]}-{hexa[8:12]}-{hexa[12:16]}-{hexa[16:20]}-{hexa[20:]}"
    compact = _SEPARATORS.sub("", text)
    if compact.startswith("+") or "(" in text:
        return _phone(compact.removeprefix("+"), text)
    if _CPF_MASK.fullmatch(text):
        return _cpf(compact, text)
    if len(compact) == 11 and _digits(compact):
        number = compact if _cpf_valid(compact) else _mobile(compact)
        if number is None:
            raise _refuse(
                Text(N_("“%(key)s” is neither a valid CPF nor a mobile number with its area code."), key=text)
            )
        return number
    if _CNPJ.fullmatch(compact.upper()):
        return _cnpj(compact.upper(), text)
    if _digits(compact) and 8 <= len(compact) <= 13:  # a phone number, short or long
        return _phone(compact, text)
    raise _refuse(Text(N_("“%(key)s” is not a Pix key. %(kinds)s"), key=text, kinds=Text(_KINDS)))


def _email(text: str) -> str:
    address = text.lower()
    if len(address) > EMAIL_MAX:
        raise _refuse(Text(N_("An e-mail used as a Pix key has at most 77 characters.")))
    if not _EMAIL.fullmatch(address):
        raise _refuse(Text(N_("“%(key)s” is not an e-mail address a Pix key can have."), key=text))
    return address


def _mobile(digits: str) -> str | None:
    """``+55DDD9XXXXXXXX`` for a Brazilian mobile number (with or without 55 or a trunk 0)."""
    if len(digits) == 13 and digits.startswith("55"):
        digits = digits[2:]
    elif len(digits) == 12 and digits.startswith("0"):
        digits = digits[1:]
    if len(digits) != 11 or not _digits(digits) or int(digits[:2]) not in DDDS or digits[2] != "9":
        return None
    return "+55" + digits


def _phone(digits: str, text: str) -> str:
    number = _mobile(digits)
    if number is None:
        raise _refuse(
            Text(
                N_(
                    "“%(key)s” is not a Brazilian mobile number: type the area code and the nine digits, as in (11) 98765-4321."
                ),
                key=text,
            )
        )
    return number


def _check_digit(values: list[int], first_weight: int) -> int:
    """The modulo-11 check digit of CPF and CNPJ: weights count down from ``first_weight`` to
    2 and start again at 9 (only a CNPJ is long enough to wrap)."""
    total, weight = 0, first_weight
    for value in values:
        total += value * weight
        weight = weight - 1 if weight > 2 else 9
    rest = total % 11
    return 0 if rest < 2 else 11 - rest


def _check_digits_match(chars: str, first_weight: int) -> bool:
    """The last two characters are the check digits of the others (each worth its ASCII code
    minus 48, so a digit is its own value and the CNPJ's letters count from 17). A number of
    one repeated character passes the arithmetic but is never issued, so it fails here."""
    if len(set(chars)) == 1:
        return False
    values = [ord(c) - 48 for c in chars[:-2]]
    first = _check_digit(values, first_weight)
    second = _check_digit([*values, first], first_weight + 1)
    return chars[-2:] == f"{first}{second}"


def _cpf_valid(digits: str) -> bool:
    return len(digits) == 11 and _digits(digits) and _check_digits_match(digits, 10)


def _cpf(digits: str, text: str) -> str:
    if not _cpf_valid(digits):
        raise _refuse(Text(N_("“%(key)s” is not a valid CPF: its check digits do not match."), key=text))
    return digits


def _cnpj(chars: str, text: str) -> str:
    if not _check_digits_match(chars, 5):
        raise _refuse(Text(N_("“%(key)s” is not a valid CNPJ: its check digits do not match."), key=text))
    return chars


# --------------------------------------------------------------------------- name and city


def _plain(raw: str, limit: int) -> str:
    """Printable ASCII (the EMV common character set), accents stripped, spaces collapsed, cut
    to ``limit`` without a trailing space."""
    decomposed = unicodedata.normalize("NFKD", raw.translate(_ASCII_TWINS))
    ascii_only = "".join(c for c in decomposed if " " <= c <= "~" or c.isspace())
    return " ".join(ascii_only.split())[:limit].rstrip()


def normalize_name(raw: str) -> str:
    """Field 59, the receiver's name: plain ASCII, at most 25 characters, never empty."""
    return _plain(raw, NAME_MAX) or DEFAULT_NAME


def normalize_city(raw: str) -> str:
    """Field 60, the receiver's city: plain ASCII, at most 15 characters, never empty."""
    return _plain(raw, CITY_MAX) or DEFAULT_CITY


# --------------------------------------------------------------------------- the BR Code


def crc16(data: str) -> str:
    """CRC16-CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor) of the UTF-8
    bytes, as four uppercase hex digits: the BR Code's field 63.

    >>> crc16("123456789")
    '29B1'
    """
    crc = 0xFFFF
    for byte in data.encode("utf-8"):
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
        crc &= 0xFFFF
    return f"{crc:04X}"


def _field(field_id: str, value: str) -> str:
    """ID + two-digit length + value; a value that does not fit two digits is refused."""
    if len(value) > 99:
        raise _refuse(Text(N_("The Pix code's field %(id)s is too long."), id=field_id), field="pix")
    return f"{field_id}{len(value):02d}{value}"


def format_amount(amount: Decimal) -> str:
    """Field 54: a positive amount in whole cents with two decimals, at most 13 characters."""
    if not amount.is_finite() or amount <= 0:
        raise _refuse(Text(N_("A Pix amount must be more than zero.")), field="amount")
    if amount != amount.quantize(Decimal("0.01")):
        raise _refuse(
            Text(N_("A Pix amount is in whole cents; %(amount)s is not."), amount=str(amount)), field="amount"
        )
    text = f"{amount:.2f}"
    if len(text) > AMOUNT_MAX_CHARS:
        raise _refuse(
            Text(N_("A Pix code cannot carry an amount as large as %(amount)s."), amount=text), field="amount"
        )
    return text


def payload(*, key: str, name: str, city: str, amount: Decimal | None, txid: str = NO_TXID) -> str:
    """The static BR Code for paying ``amount`` (None: the payer types it) to ``key``.

    Fields in the manual's order: 00 format "01", 26 the Pix account (GUI, key), 52 category
    "0000", 53 currency 986 (real), 54 amount, 58 "BR", 59 name, 60 city, 62-05 the transaction
    id, 63 the CRC over everything before it including "6304". Key, name and city are
    normalised here too, so raw or stored values both work.
    """
    if txid != NO_TXID and not _TXID.fullmatch(txid):
        raise _refuse(Text(N_("A Pix transaction id is *** or up to 25 letters and digits.")), field="txid")
    fields = [
        _field("00", "01"),
        _field("26", _field("00", GUI) + _field("01", normalize_key(key))),
        _field("52", "0000"),
        _field("53", "986"),
    ]
    if amount is not None:
        fields.append(_field("54", format_amount(amount)))
    fields += [
        _field("58", "BR"),
        _field("59", normalize_name(name)),
        _field("60", normalize_city(city)),
        _field("62", _field("05", txid)),
    ]
    body = "".join(fields) + "6304"
    return body + crc16(body)


#: A BR Code's fields by ID; a template's value is its own fields.
Fields: TypeAlias = "dict[str, str | Fields]"


def _tlv(text: str, *, nested: bool) -> Fields:
    fields: Fields = {}
    at = 0
    while at < len(text):
        head = text[at : at + 4]
        if len(head) < 4 or not _digits(head):
            raise _broken()
        field_id, length = head[:2], int(head[2:])
        value = text[at + 4 : at + 4 + length]
        if len(value) != length or field_id in fields:
            raise _broken()
        fields[field_id] = _tlv(value, nested=False) if nested and field_id in _TEMPLATES else value
        at += 4 + length
    return fields


def _broken() -> RulesError:
    return _refuse(Text(N_("This is not a valid Pix code: its fields do not add up.")), field="pix")


def parse(code: str) -> Fields:
    """The fields of a BR Code by ID, templates (26-51, 62, 64, 80-99) as nested dicts, after
    checking the layout (00 first, 63 last) and the CRC. The inverse of :func:`payload`.

    Raises RulesError for anything a bank app would refuse to read.
    """
    if not code.isascii() or not code.startswith("000201") or len(code) < 8 or code[-8:-4] != "6304":
        raise _broken()
    fields = _tlv(code, nested=True)
    if list(fields)[-1] != "63":
        raise _broken()
    if crc16(code[:-4]) != code[-4:]:
        raise _refuse(Text(N_("This Pix code is damaged: its check code does not match.")), field="pix")
    return fields


def qr_svg(code: str, *, label: str) -> Markup:
    """``code`` as an inline SVG QR code named by ``label``; a broken code is refused first, so
    a page never shows a QR code the payer's bank would reject."""
    parse(code)
    return svg(code, label=label)
