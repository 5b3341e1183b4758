"""Pix BR Codes ("copia e cola") for settle-up transfers, against the published format.

The golden payloads are the Banco Central's own examples, copied as printed in its manuals
(Manual de Padrões para Iniciação do Pix: the static, dynamic and composite examples; Manual do
BR Code: the 270-character example). Our CRC must reproduce every one of their check codes, and
our payload must reproduce the static example byte for byte. The QR code is drawn, rasterised
and read back with zbarimg, the reader the browser tests use.
"""

from __future__ import annotations

import doctest
import re
import shutil
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from hypothesis import given
from hypothesis import strategies as st
from markupsafe import Markup

from referee import pix
from referee.rules.errors import RulesError

# --------------------------------------------------------------------------- published examples

EVP = "123e4567-e12b-12d1-a456-426655440000"
#: Manual de Padrões para Iniciação do Pix, static QR code (random key, no amount).
BCB_STATIC = (
    "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR"
    "5913Fulano de Tal6008BRASILIA62070503***63041D3D"
)
#: Same manual, dynamic QR code (a PSP's URL instead of a key; field 01 = 12).
BCB_DYNAMIC = (
    "00020101021226700014br.gov.bcb.pix2548pix.example.com/8b3da2f39a4140d1a91abd93113bd441"
    "5204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***630464E4"
)
#: Same manual, composite QR code: the static code with amount 100.50 plus a recurrence (80).
BCB_COMPOSITE = (
    "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000520400005303986"
    "5406100.505802BR5913Fulano de Tal6008BRASILIA62070503***80740014br.gov.bcb.pix2552pix.example.com/rec/"
    "2353c790eefb11eaadc10242ac12000263042875"
)
#: Manual do BR Code: a card arrangement, Pix and another arrangement in one code (270 characters).
BR_CODE = (
    "00020104141234567890123426580014BR.GOV.BCB.PIX0136123e4567-e12b-12d1-a456-426655440000"
    "27300012BR.COM.OUTRO011001234567895204000053039865406123.455802BR5917NOME DO RECEBEDOR6008BRASILIA"
    "61087007490062190515RP12345678-201980390012BR.COM.OUTRO01190123.ABCD.3456.WXYZ6304AD38"
)
PUBLISHED = [
    pytest.param(BCB_STATIC, "1D3D", id="pix-static"),
    pytest.param(BCB_DYNAMIC, "64E4", id="pix-dynamic"),
    pytest.param(BCB_COMPOSITE, "2875", id="pix-composite"),
    pytest.param(BR_CODE, "AD38", id="br-code"),
]


def test_crc16_ccitt_false_check_value() -> None:
    """The catalogue's check value for CRC-16/CCITT-FALSE, and the bare initial value."""
    assert pix.crc16("123456789") == "29B1"
    assert pix.crc16("") == "FFFF"
    assert re.fullmatch(r"[0-9A-F]{4}", pix.crc16("a"))  # four uppercase hex digits, zero-padded


@pytest.mark.parametrize(("code", "crc"), PUBLISHED)
def test_crc_reproduces_the_published_examples(code: str, crc: str) -> None:
    """The CRC covers everything before it, including its own ID and length "6304"."""
    assert code.endswith("6304" + crc)
    assert pix.crc16(code[:-4]) == crc


@pytest.mark.parametrize(("code", "crc"), PUBLISHED)
def test_parse_reads_the_published_examples(code: str, crc: str) -> None:
    fields = pix.parse(code)
    assert fields["00"] == "01" and fields["63"] == crc
    assert fields["53"] == "986" and fields["58"] == "BR"


def test_the_br_code_example_has_the_length_its_manual_states() -> None:
    assert len(BR_CODE) == 270
    fields = pix.parse(BR_CODE)
    assert fields["26"] == {"00": "BR.GOV.BCB.PIX", "01": EVP}
    assert fields["54"] == "123.45" and fields["62"] == {"05": "RP12345678-2019"}


def test_payload_reproduces_the_manual_static_example_byte_for_byte() -> None:
    assert pix.payload(key=EVP, name="Fulano de Tal", city="BRASILIA", amount=None) == BCB_STATIC


def test_payload_with_an_amount_matches_the_static_part_of_the_composite_example() -> None:
    """The composite example is our code with 54 = 100.50, followed by a recurrence template
    (field 80) before the CRC: everything up to field 80 must be identical."""
    code = pix.payload(key=EVP, name="Fulano de Tal", city="BRASILIA", amount=Decimal("100.50"))
    static_part = BCB_COMPOSITE[: BCB_COMPOSITE.index("8074")]
    assert code == static_part + "6304" + pix.crc16(static_part + "6304")


# --------------------------------------------------------------------------- layout and lengths


def _walk(code: str) -> list[tuple[str, int, str]]:
    """ID, stated length and value of each top-level field, read independently of pix.parse."""
    out, at = [], 0
    while at < len(code):
        field_id, length = code[at : at + 2], int(code[at + 2 : at + 4])
        out.append((field_id, length, code[at + 4 : at + 4 + length]))
        at += 4 + length
    assert at == len(code)
    return out


def test_fields_come_in_the_manuals_order_with_true_lengths() -> None:
    code = pix.payload(key="+5511987654321", name="Ana", city="Campinas", amount=Decimal("12.5"), txid="Mesa7")
    fields = _walk(code)
    assert [f[0] for f in fields] == ["00", "26", "52", "53", "54", "58", "59", "60", "62", "63"]
    for _, length, value in fields:
        assert length == len(value) <= 99
    assert {f[0]: f[2] for f in fields}["26"] == "0014br.gov.bcb.pix0114+5511987654321"
    assert "62090505Mesa7" in code and code.endswith("6304" + pix.crc16(code[:-4]))
    assert code.isascii() and code.isprintable()


def test_field_01_is_left_out_so_the_code_may_be_paid_again() -> None:
    fields = pix.parse(pix.payload(key=EVP, name="Ana", city="X", amount=Decimal("1")))
    assert "01" not in fields


def test_the_longest_key_fills_field_26_exactly() -> None:
    email = "a" * 67 + "@example.c"  # 77 characters, the most an e-mail key may have
    code = pix.payload(key=email, name="Ana", city="X", amount=None)
    assert _walk(code)[1] == ("26", 99, "0014br.gov.bcb.pix0177" + email)


@pytest.mark.parametrize(
    ("amount", "text"),
    [
        ("1", "1.00"),
        ("12.5", "12.50"),
        ("0.01", "0.01"),
        ("1234.56", "1234.56"),
        ("10.000", "10.00"),
        ("9999999999.99", "9999999999.99"),
    ],
)
def test_amounts_have_two_decimals(amount: str, text: str) -> None:
    code = pix.payload(key=EVP, name="Ana", city="X", amount=Decimal(amount))
    assert f"54{len(text):02d}{text}5802BR" in code
    assert pix.parse(code)["54"] == text


def test_no_amount_means_no_field_54() -> None:
    assert "54" not in pix.parse(pix.payload(key=EVP, name="Ana", city="X", amount=None))


@pytest.mark.parametrize("amount", ["0", "-5", "0.001", "10.005", "10000000000", "NaN", "Infinity"])
def test_amounts_a_pix_cannot_carry_are_refused(amount: str) -> None:
    with pytest.raises(RulesError) as refused:
        pix.payload(key=EVP, name="Ana", city="X", amount=Decimal(amount))
    _assert_sentence(refused.value, "amount")


@pytest.mark.parametrize("txid", ["***", "Mesa12", "A" * 25, "0"])
def test_transaction_ids(txid: str) -> None:
    code = pix.payload(key=EVP, name="Ana", city="X", amount=None, txid=txid)
    assert pix.parse(code)["62"] == {"05": txid}


@pytest.mark.parametrize("txid", ["", "mesa 12", "pedido-12", "ação", "A" * 26, "***x"])
def test_bad_transaction_ids_are_refused(txid: str) -> None:
    with pytest.raises(RulesError) as refused:
        pix.payload(key=EVP, name="Ana", city="X", amount=None, txid=txid)
    _assert_sentence(refused.value, "txid")


# --------------------------------------------------------------------------- name and city


@pytest.mark.parametrize(
    ("raw", "name"),
    [
        ("Fulano de Tal", "Fulano de Tal"),
        ("  João   Conceição ", "Joao Conceicao"),
        ("D’Ávila “Bar” – Ñandú", 'D\'Avila "Bar" - Nandu'),
        ("Restaurante e Pizzaria Bom Sabor", "Restaurante e Pizzaria Bo"),
        ("Maria da Silva Albuquerq ue", "Maria da Silva Albuquerq"),  # no trailing space after the cut
        ("🎲🃏", pix.DEFAULT_NAME),
        ("", pix.DEFAULT_NAME),
    ],
)
def test_names_become_plain_ascii_of_at_most_25(raw: str, name: str) -> None:
    assert pix.normalize_name(raw) == name
    assert len(name) <= 25


@pytest.mark.parametrize(
    ("raw", "city"),
    [
        ("BRASILIA", "BRASILIA"),
        ("São Paulo", "Sao Paulo"),
        ("Teixeira de Freitas", "Teixeira de Fre"),
        ("Eunápolis\t", "Eunapolis"),
        ("   ", pix.DEFAULT_CITY),
        ("", "SAO PAULO"),
    ],
)
def test_cities_become_plain_ascii_of_at_most_15(raw: str, city: str) -> None:
    assert pix.normalize_city(raw) == city


def test_payload_uses_the_plain_name_and_city() -> None:
    fields = pix.parse(pix.payload(key=EVP, name="Açaí da Conceição", city="", amount=None))
    assert fields["59"] == "Acai da Conceicao" and fields["60"] == "SAO PAULO"


# --------------------------------------------------------------------------- keys


@pytest.mark.parametrize(
    ("raw", "key"),
    [
        # CPF: masked or bare; eleven bare digits with valid CPF check digits are a CPF
        ("123.456.789-09", "12345678909"),
        ("12345678909", "12345678909"),
        (" 529.982.247-25 ", "52998224725"),
        ("11912345684", "11912345684"),  # a valid CPF that would also be a São Paulo mobile
        # CNPJ: numeric (the Banco Central's own) and alphanumeric (issued since July 2026)
        ("00.038.166/0001-05", "00038166000105"),
        ("00038166000105", "00038166000105"),
        ("12.ABC.345/01DE-35", "12ABC34501DE35"),
        ("12.abc.345/01de-35", "12ABC34501DE35"),
        # phone: +55 + area code + 9 digits, however typed
        ("(11) 98765-4321", "+5511987654321"),
        ("+55 11 98765 4321", "+5511987654321"),
        ("+55 (73) 98889-9345", "+5573988899345"),
        ("5573988899345", "+5573988899345"),
        ("073988899345", "+5573988899345"),
        ("73988899345", "+5573988899345"),  # eleven digits, not a valid CPF: a mobile number
        ("(11) 91234-5684", "+5511912345684"),  # the parenthesis says phone, whatever the digits
        # e-mail, lowercased
        ("Fulano_da_Silva.Recebedor@Example.com", "fulano_da_silva.recebedor@example.com"),
        ("  pix@bcb.gov.br ", "pix@bcb.gov.br"),
        # random key (EVP), lowercased, hyphens restored
        (EVP, EVP),
        (EVP.upper(), EVP),
        (EVP.replace("-", ""), EVP),
    ],
)
def test_keys_are_normalised(raw: str, key: str) -> None:
    assert pix.normalize_key(raw) == key
    assert pix.normalize_key(key) == key  # a stored key passes unchanged


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "   ",
        "123.456.789-00",
        "111.111.111-11",
        "12345678900",  # CPF check digits wrong / never issued
        "00038166000106",
        "00000000000000",
        "12ABC34501DE36",
        "12ÃBC34501DE35",  # CNPJ
        "(73) 3281-1234",
        "(20) 98889-9345",
        "98889-9345",
        "+1 415 555 2671",
        "+55 11 8765-4321",  # phone
        "fulano@gmail",
        "fulano gmail.com",
        "fulano@@gmail.com",
        "ação@gmail.com",
        "a" * 70 + "@gmail.com",
        "123e4567-e12b-12d1-a456-42665544000",
        "123g4567-e12b-12d1-a456-426655440000",  # EVP
        "abc",
        "12345",
        "¹²³⁴⁵⁶⁷⁸⁹⁰¹",
        "١٢٣٤٥٦٧٨٩٠٩",
        "x" * 5000,
    ],
)
def test_bad_keys_are_refused_with_a_sentence(raw: str) -> None:
    with pytest.raises(RulesError) as refused:
        pix.normalize_key(raw)
    _assert_sentence(refused.value, "pix_key")
    assert len(str(refused.value)) < 200  # a 5,000-character key is quoted by its start only


def test_payload_refuses_a_bad_key_too() -> None:
    with pytest.raises(RulesError) as refused:
        pix.payload(key="12345678900", name="Ana", city="X", amount=None)
    assert refused.value.field == "pix_key"


def _assert_sentence(error: RulesError, field: str) -> None:
    """One sentence a person can act on (capital first, full stop last), pointed at a field."""
    text = str(error)
    assert error.field == field
    assert text[:1].isupper() or text.startswith("“"), text
    assert text.endswith("."), text
    assert error.text.render() == text


# --------------------------------------------------------------------------- parse refusals


@pytest.mark.parametrize(
    "code",
    [
        "",
        "ola mundo",
        BCB_STATIC[:-1],  # truncated
        BCB_STATIC.replace("Fulano", "Fulana"),  # CRC no longer matches
        BCB_STATIC[:-4] + "1d3d",  # the CRC is uppercase hex
        BCB_STATIC.replace("5913Fulano", "5914Fulano"),  # a length that lies
        "000201269900" + "6304",
        BCB_STATIC.replace("000201", "000202", 1),
        BCB_STATIC + "0000",  # something after the CRC
    ],
)
def test_parse_refuses_what_a_bank_app_would(code: str) -> None:
    with pytest.raises(RulesError) as refused:
        pix.parse(code)
    _assert_sentence(refused.value, "pix")


# --------------------------------------------------------------------------- properties

DDDS = sorted(pix.DDDS)


def _with_check_digits(body: str, *, cnpj: bool) -> str:
    """Append the two modulo-11 check digits, spelled as the Receita does: weights from the
    right 2, 3, 4...; a CNPJ's wrap to 2 after 9; each character worth its ASCII code - 48."""
    for _ in range(2):
        weights = [2 + (i % 8 if cnpj else i) for i in range(len(body))]
        total = sum((ord(c) - 48) * w for c, w in zip(reversed(body), weights))
        body += str(0 if total % 11 < 2 else 11 - total % 11)
    return body


def test_the_test_check_digit_helper_agrees_with_published_numbers() -> None:
    assert _with_check_digits("123456789", cnpj=False) == "12345678909"
    assert _with_check_digits("000381660001", cnpj=True) == "00038166000105"
    assert _with_check_digits("12ABC34501DE", cnpj=True) == "12ABC34501DE35"


cpfs = st.text("0123456789", min_size=9, max_size=9).map(lambda b: _with_check_digits(b, cnpj=False))
cnpjs = st.text("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=12, max_size=12).map(
    lambda b: _with_check_digits(b, cnpj=True)
)
phones = st.builds(
    lambda ddd, rest: f"+55{ddd}9{rest}", st.sampled_from(DDDS), st.text("0123456789", min_size=8, max_size=8)
)
emails = st.builds(
    lambda user, host: f"{user}@{host}.com.br",
    st.text("abcdefghijklmnopqrstuvwxyz0123456789._+-", min_size=1, max_size=40),
    st.text("abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=20),
)
evps = st.uuids().map(str)
keys = st.one_of(cpfs, cnpjs, phones, emails, evps).filter(lambda k: len(set(k)) > 1)
amounts = st.none() | st.decimals(min_value=Decimal("0.01"), max_value=Decimal("9999999999.99"), places=2)
txids = st.just("***") | st.text(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=25
)


@given(key=keys, name=st.text(max_size=60), city=st.text(max_size=40), amount=amounts, txid=txids)
def test_every_payload_parses_back_with_a_valid_crc(
    key: str, name: str, city: str, amount: Decimal | None, txid: str
) -> None:
    code = pix.payload(key=key, name=name, city=city, amount=amount, txid=txid)
    fields = pix.parse(code)  # checks the CRC
    assert fields["26"] == {"00": "br.gov.bcb.pix", "01": pix.normalize_key(key)}
    assert pix.normalize_key(key) == (key.lower() if "@" in key else key)  # generated keys are stored forms
    if amount is None:
        assert "54" not in fields
    else:
        assert Decimal(str(fields["54"])) == amount and re.fullmatch(r"\d{1,10}\.\d\d", str(fields["54"]))
    assert 1 <= len(str(fields["59"])) <= 25 and 1 <= len(str(fields["60"])) <= 15
    assert fields["62"] == {"05": txid}
    assert code.isascii() and code.isprintable()
    for _, length, value in _walk(code):
        assert length == len(value)


@given(
    raw=st.one_of(
        st.text(max_size=90),
        st.text("0123456789 .-/()+", max_size=20),  # what a phone, CPF or CNPJ looks like
        st.text("0123456789abcdefABCDEF-", min_size=30, max_size=38),  # what a random key looks like
        st.text("abcXYZ019.@_-+ ", max_size=40),  # what an e-mail looks like
    )
)
def test_any_typed_key_is_normalised_for_good_or_refused_with_a_sentence(raw: str) -> None:
    try:
        key = pix.normalize_key(raw)
    except RulesError as refused:
        _assert_sentence(refused, "pix_key")
    else:
        assert pix.normalize_key(key) == key and key.isascii() and len(key) <= 77


@given(code=st.text(max_size=200))
def test_parse_never_crashes(code: str) -> None:
    try:
        pix.parse(code)
    except RulesError as refused:
        assert refused.field == "pix"


def test_the_module_doctests_pass() -> None:
    failures, tried = doctest.testmod(pix)
    assert tried > 0 and failures == 0


# --------------------------------------------------------------------------- the QR code


def _rasterise(svg: str, path: Path, scale: int = 8) -> None:
    """Draw qrcode's SVG path (one ``Mx,yH..V..H..z`` square per dark module) into a PGM, the
    plain grey-map format zbarimg reads; fail if the path holds anything else."""
    size = int(re.search(r'viewBox="0 0 (\d+) \1"', svg).group(1))  # type: ignore[union-attr]
    d = re.search(r' d="([^"]*)"', svg).group(1)  # type: ignore[union-attr]
    squares = re.findall(r"M(\d+),(\d+)H(\d+)V(\d+)H\d+z", d)
    assert squares and "".join(f"M{x},{y}H{a}V{b}H{x}z" for x, y, a, b in squares) == d
    pixels = bytearray(b"\xff" * (size * scale) ** 2)
    for x, y, _, _ in squares:
        for row in range(int(y) * scale, (int(y) + 1) * scale):
            start = row * size * scale + int(x) * scale
            pixels[start : start + scale] = b"\x00" * scale
    path.write_bytes(f"P5 {size * scale} {size * scale} 255\n".encode() + bytes(pixels))


def test_the_qr_code_decodes_back_to_the_payload(tmp_path: Path) -> None:
    zbarimg = shutil.which("zbarimg")
    if zbarimg is None:
        pytest.skip("zbarimg is not installed: the Pix QR code was drawn but not read back")
    code = pix.payload(
        key="(11) 98765-4321", name="Ana Conceição", city="Campinas", amount=Decimal("37.50"), txid="Mesa3"
    )
    svg = pix.qr_svg(code, label="Pix QR code")
    image = tmp_path / "pix.pgm"
    _rasterise(str(svg), image)
    answer = subprocess.run([zbarimg, "--raw", "-q", str(image)], capture_output=True, text=True, timeout=30)
    assert answer.returncode == 0, answer.stderr
    assert answer.stdout.strip() == code


def test_qr_svg_is_accessible_inline_svg() -> None:
    svg = pix.qr_svg(BCB_STATIC, label='Pix to "Ana"')
    assert isinstance(svg, Markup)
    assert svg.startswith('<svg class="qr" role="img" aria-label="Pix to &#34;Ana&#34;"')


def test_qr_svg_refuses_a_broken_code() -> None:
    with pytest.raises(RulesError):
        pix.qr_svg(BCB_STATIC.replace("Fulano", "Fulana"), label="x")


# --------------------------------------------------------------------------- the template


def _transfer(code: str, payee: str = "Ana") -> dict[str, Any]:
    return {
        "from": "Bia",
        "to": payee,
        "amount": 3,
        "pix": {
            "payload": code,
            "svg": pix.qr_svg(code, label=f"Pix QR code for {payee}"),
            "payee": payee,
            "amount": "R$ 37,50",
        },
    }


def _render(app: Flask, source: str, **context: Any) -> str:
    with app.test_request_context():
        return app.jinja_env.from_string(source).render(**context)


def test_the_template_shows_the_code_the_amount_the_payee_and_a_copy_button(app: Flask) -> None:
    code = pix.payload(key=EVP, name="Ana", city="", amount=Decimal("37.50"))
    html = _render(
        app, '{% from "settle/_pix.html" import pix_payment %}{{ pix_payment(t.pix, "pix-7") }}', t=_transfer(code)
    )
    assert '<section class="card pix stack" aria-labelledby="pix-7-h">' in html
    assert re.search(r'<h3 id="pix-7-h">[^<]*<bdi>Ana</bdi>[^<]*R\$ 37,50</h3>', html)  # the name isolated
    assert '<div class="qr-box"><svg class="qr" role="img" aria-label="Pix QR code for Ana"' in html
    assert '<label for="pix-7-code">' in html
    textarea = re.search(r'<textarea id="pix-7-code"[^>]*>([^<]*)</textarea>', html, re.S)
    assert textarea and textarea.group(1) == code and "readonly" in textarea.group(0)
    assert 'aria-describedby="pix-7-scan pix-7-check"' in textarea.group(0)
    assert re.search(
        r'<button type="button" class="button btn btn-secondary" data-copy="#pix-7-code"[^>]*>[^<]+</button>', html
    )
    check = re.search(r'<p class="help" id="pix-7-check">(.*?)</p>', html)
    assert check and "<bdi>Ana</bdi>" in check.group(1) and "R$ 37,50" in check.group(1)


def test_the_include_gives_every_transfer_its_own_ids(app: Flask) -> None:
    """Two payers owing the same payee the same amount get the same code, yet distinct ids."""
    code = pix.payload(key=EVP, name="Ana", city="", amount=Decimal("37.50"))
    html = _render(
        app,
        '{% for transfer in ts %}{% set pix_id = "pix-" ~ loop.index %}{% include "settle/_pix.html" %}{% endfor %}',
        ts=[_transfer(code), _transfer(code), {"from": "Caio", "to": "Dani", "amount": 1}],
    )
    ids = re.findall(r'\bid="([^"]+)"', html)
    assert len(ids) == len(set(ids)) == 2 * 4  # heading, scan help, textarea, check hint; no box for Dani
    for target in re.findall(r'data-copy="#([^"]+)"', html):
        assert target in ids


def test_the_template_escapes_names(app: Flask) -> None:
    code = pix.payload(key=EVP, name="x", city="", amount=Decimal("1"))
    html = _render(app, '{% set transfer = t %}{% include "settle/_pix.html" %}', t=_transfer(code, payee="<b>Bia</b>"))
    assert "<b>Bia</b>" not in html and "&lt;b&gt;Bia&lt;/b&gt;" in html
    assert f'id="pix-{code[-4:]}-code"' in html  # the fallback id without pix_id


def test_the_module_does_not_import_flask() -> None:
    """referee.pix is pure: importing it in a fresh interpreter loads no Flask or SQLAlchemy."""
    probe = "import sys, referee.pix; print(sorted(m for m in ('flask', 'sqlalchemy') if m in sys.modules))"
    answer = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    assert answer.stdout.strip() == "[]"
