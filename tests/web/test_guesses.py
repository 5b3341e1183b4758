"""Wrong guesses at a typed code (a join code, the club's code) and the club's code itself.

Only wrong tries count, per phone (its session's device id; an API call without a session by
its address), against the club's code from every phone, and all together; phones behind the
same Wi-Fi never lock each other out. The club's code is long enough for that global ceiling,
is typed with or without spaces, and changing it signs every manager phone out.

Runs on SQLite and on PostgreSQL (TEST_DATABASE_URL).
"""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from referee import club, config, guesses
from referee.extensions import db
from referee.models import JoinAttempt

from .api_support import API, create_table

WIFI = "192.168.0.10"  # every phone of the club behind one router
FLOOD = "203.0.113.7"  # a script's address
README = Path(__file__).resolve().parents[2] / "README.md"


def _phone(app: Flask) -> FlaskClient:
    client = app.test_client()
    client.set_cookie("lang", "en")
    return client


def _join(client: FlaskClient, code: str, address: str = WIFI) -> int:
    return client.post("/join", data={"code": code}, environ_base={"REMOTE_ADDR": address}).status_code


def _club(client: FlaskClient, code: str, address: str = WIFI) -> int:
    return client.post("/club", data={"code": code}, environ_base={"REMOTE_ADDR": address}).status_code


def _new_code(app: Flask, owner: FlaskClient, tid: str) -> str:
    html = owner.post(f"/t/{tid}/share/code").get_data(as_text=True)
    found = re.search(r"data-join-code>([^<]+)<", html)
    assert found
    return found.group(1).strip()


def _owned_table(app: Flask) -> tuple[FlaskClient, str]:
    owner = app.test_client()
    table = create_table(owner)
    assert owner.post(f"/t/{table['id']}/scorer", data={"token": table["token"]}).status_code == 302
    return owner, table["id"]


def _wrong_count(app: Flask) -> int:
    with app.app_context():
        return int(db.session.scalar(select(func.count()).select_from(JoinAttempt)) or 0)


def _manager(client: FlaskClient) -> bool:
    return 'name="action" value="lock"' in client.get("/club").get_data(as_text=True)


# --------------------------------------------------------------------------- join codes


def test_a_phone_guessing_join_codes_locks_out_only_itself(app: Flask) -> None:
    owner, tid = _owned_table(app)
    guesser = _phone(app)
    for _ in range(guesses.PHONE_WRONG):
        assert _join(guesser, "ZZZZ-ZZZZ") == 422
    code = _new_code(app, owner, tid)
    assert _join(guesser, code) == 429  # refused before the code is looked at
    friend = _phone(app)  # same Wi-Fi, another phone
    assert _join(friend, code) == 302


def test_right_join_codes_are_not_counted(app: Flask) -> None:
    owner, tid = _owned_table(app)
    phone = _phone(app)
    for _ in range(guesses.PHONE_WRONG + 2):
        assert _join(phone, _new_code(app, owner, tid)) == 302
    assert _wrong_count(app) == 0
    for _ in range(guesses.PHONE_WRONG - 1):
        assert _join(phone, "ZZZZ-ZZZZ") == 422
    assert _join(phone, _new_code(app, owner, tid)) == 302
    assert _wrong_count(app) == guesses.PHONE_WRONG - 1


def test_wrong_guesses_from_every_phone_together_have_a_ceiling(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(guesses, "GLOBAL_WRONG", 3)
    owner, tid = _owned_table(app)
    for _ in range(3):
        assert _join(_phone(app), "ZZZZ-ZZZZ") == 422  # three phones, one wrong code each
    late = _phone(app)
    refused = late.post("/join", data={"code": _new_code(app, owner, tid)}, environ_base={"REMOTE_ADDR": WIFI})
    assert refused.status_code == 429
    assert "several phones" in unescape(refused.get_data(as_text=True))
    assert _club(late, app.config["CLUB_CODE"]) == 429  # the club's code shares the ceiling


# --------------------------------------------------------------------------- floods


def test_a_flood_with_a_fresh_cookie_each_is_held_by_its_address(app: Flask) -> None:
    owner, tid = _owned_table(app)
    for n in range(guesses.NETWORK_WRONG):
        guess = _join if n % 2 else _club
        assert guess(_phone(app), "1234 5678 9012" if guess is _club else "ZZZZ-ZZZZ", FLOOD) == 422
    code = _new_code(app, owner, tid)
    assert _join(_phone(app), code, FLOOD) == 429  # the script's address, whatever its cookie
    assert _club(_phone(app), app.config["CLUB_CODE"], FLOOD) == 429
    assert _join(_phone(app), code, WIFI) == 302  # another address: the right codes still work
    assert _club(_phone(app), app.config["CLUB_CODE"], WIFI) == 302


def test_a_flood_from_a_few_addresses_does_not_lock_out_a_quiet_one(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(guesses, "NETWORK_WRONG", 4)
    monkeypatch.setattr(guesses, "SHARED_WRONG", 8)
    monkeypatch.setattr(guesses, "QUIET_WRONG", 2)
    owner, tid = _owned_table(app)
    for address in ("198.51.100.1", "198.51.100.2"):
        for _ in range(4):
            assert _join(_phone(app), "ZZZZ-ZZZZ", address) == 422
    assert _join(_phone(app), "ZZZZ-ZZZZ", "198.51.100.3") == 422  # quiet: still checked
    assert _join(_phone(app), "ZZZZ-ZZZZ", "198.51.100.3") == 422
    assert _join(_phone(app), _new_code(app, owner, tid), "198.51.100.3") == 429  # no longer quiet
    assert _join(_phone(app), _new_code(app, owner, tid), WIFI) == 302
    assert _club(_phone(app), app.config["CLUB_CODE"], WIFI) == 302


def test_a_flood_from_many_addresses_meets_a_ceiling(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(guesses, "SHARED_WRONG", 2)
    monkeypatch.setattr(guesses, "CLUB_CODE_WRONG", 4)
    monkeypatch.setattr(guesses, "GLOBAL_WRONG", 6)
    owner, tid = _owned_table(app)
    for n in range(4):
        assert _club(_phone(app), "0000 0000 0000", f"198.51.100.{n}") == 422
    assert _club(_phone(app), app.config["CLUB_CODE"], WIFI) == 429  # the club code's ceiling
    for n in range(4, 6):
        assert _join(_phone(app), "ZZZZ-ZZZZ", f"198.51.100.{n}") == 422
    assert _join(_phone(app), _new_code(app, owner, tid), WIFI) == 429  # everyone's ceiling
    assert _wrong_count(app) == 6


def test_an_ipv6_client_is_counted_by_its_64_prefix() -> None:
    assert (
        guesses.network("2001:db8:1:2::5") == guesses.network("2001:db8:1:2:ffff:1:2:3") == "2001:0db8:0001:0002::/64"
    )
    assert guesses.network("2001:db8:1:3::5") != guesses.network("2001:db8:1:2::5")
    assert guesses.network("::ffff:192.0.2.1") == guesses.network("192.0.2.1") == "192.0.2.1"
    assert guesses.network("fe80::1%eth0") == "fe80:0000:0000:0000::/64"
    assert guesses.network("") == guesses.network(None) == guesses.network("unix:") == "?"


def test_a_flood_changing_addresses_inside_its_64_is_held(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(guesses, "NETWORK_WRONG", 3)
    for n in range(3):
        assert _club(_phone(app), "0000 0000 0000", f"2001:db8::{n + 1}") == 422
    assert _club(_phone(app), app.config["CLUB_CODE"], "2001:db8::99") == 429
    assert _club(_phone(app), app.config["CLUB_CODE"], "2001:db8:0:1::99") == 302


def test_a_flood_from_many_64s_of_one_48_is_held_by_the_48(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """A home is handed a /56 (256 networks of /64), a company a /48: counted only per /64, one
    of them alone would reach everyone's ceiling."""
    monkeypatch.setattr(guesses, "SITE_WRONG", 3)
    for n in range(3):
        assert _club(_phone(app), "0000 0000 0000", f"2001:db8:0:{n}::1") == 422
    assert _club(_phone(app), app.config["CLUB_CODE"], "2001:db8:0:ff::1") == 429  # a fresh /64, same /48
    assert _club(_phone(app), app.config["CLUB_CODE"], "2001:db8:1::1") == 302  # the next /48


def _known_phone(app: Flask) -> FlaskClient:
    """A phone that was scoring at the club before anyone guessed: its session has a device id."""
    phone, _tid = _owned_table(app)
    phone.set_cookie("lang", "en")
    with phone.session_transaction() as session:
        assert "device" in session
    return phone


def test_a_script_at_the_next_table_does_not_lock_the_club_s_phones_out(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A script on the club's Wi-Fi dropping its cookie with every guess reaches the Wi-Fi's
    ceiling; the phones that were there before it started are judged by their own count."""
    monkeypatch.setattr(guesses, "NETWORK_WRONG", 4)
    owner, tid = _owned_table(app)
    regular, fumbler = _known_phone(app), _known_phone(app)
    for n in range(4):
        guess = _join if n % 2 else _club
        assert guess(_phone(app), "0000 0000 0000" if guess is _club else "ZZZZ-ZZZZ") == 422
    assert _join(_phone(app), _new_code(app, owner, tid)) == 429  # the script's next fresh cookie
    assert _club(_phone(app), app.config["CLUB_CODE"]) == 429
    assert _join(regular, _new_code(app, owner, tid)) == 302  # the club's phones still get in
    assert _club(regular, app.config["CLUB_CODE"]) == 302
    for _ in range(guesses.PHONE_WRONG):
        assert _join(fumbler, "ZZZZ-ZZZZ") == 422  # its own mistakes, counted as its own
    assert _join(fumbler, _new_code(app, owner, tid)) == 429


def test_sessions_made_ahead_of_a_flood_share_a_ceiling_of_their_own(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A script could make many sessions first, then guess with each: the known phones of one
    network together meet :data:`guesses.KNOWN_WRONG`, and the phones of other networks do not."""
    monkeypatch.setattr(guesses, "NETWORK_WRONG", 1)
    monkeypatch.setattr(guesses, "KNOWN_WRONG", 2)
    owner, tid = _owned_table(app)
    made_ahead = [_known_phone(app) for _ in range(3)]
    assert _join(_phone(app), "ZZZZ-ZZZZ", FLOOD) == 422  # the flood starts: FLOOD is over its ceiling
    assert _join(made_ahead[0], "ZZZZ-ZZZZ", FLOOD) == 422
    assert _club(made_ahead[1], "0000 0000 0000", FLOOD) == 422
    assert _join(made_ahead[2], _new_code(app, owner, tid), FLOOD) == 429
    assert _join(_known_phone(app), _new_code(app, owner, tid), WIFI) == 302


def test_a_phone_s_birth_cannot_be_written_by_the_phone(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """The birth time is in the signed session: a cookie the script writes itself is no session."""
    monkeypatch.setattr(guesses, "NETWORK_WRONG", 2)
    owner, tid = _owned_table(app)
    for _ in range(2):
        assert _join(_phone(app), "ZZZZ-ZZZZ") == 422
    forged = _phone(app)
    forged.set_cookie("session", "eyJib3JuIjoxLjAsImRldmljZSI6ImFiYzEyMyJ9.x.y")
    assert _join(forged, _new_code(app, owner, tid)) == 429


def _figure(number: float) -> str:
    """A figure as the README writes it: two significant digits, with thousands commas."""
    rounded = float(f"{number:.2g}")
    return f"{rounded:,.0f}"


def test_the_readme_figures_match_the_constants() -> None:
    text = " ".join(README.read_text(encoding="utf-8").split())
    start = text.index("**Rate limits.**")
    section = text[start : text.index("**Standings**", start)]
    windows_an_hour = 60 // guesses.WINDOW_MINUTES
    hours_a_year = 24 * 365
    join_windows = 30 // guesses.WINDOW_MINUTES  # a join code lives 30 minutes
    join_codes = 31**8
    one = (guesses.NETWORK_WRONG + guesses.KNOWN_WRONG) * windows_an_hour
    flood_club = guesses.CLUB_CODE_WRONG * windows_an_hour * hours_a_year
    expected = [
        "ten wrong join codes and ten wrong club codes per phone" if guesses.PHONE_WRONG == 10 else "",
        f"{guesses.NETWORK_WRONG} wrong codes of either kind per network",
        f"far below {guesses.NETWORK_WRONG}",
        f"Past {guesses.SHARED_WRONG} wrong codes",
        f"typed {guesses.QUIET_WRONG} wrong codes",
        f"{guesses.CLUB_CODE_WRONG} wrong club codes, and {guesses.GLOBAL_WRONG:,} wrong codes",
        f"one network gets {one} wrong codes an hour, {one * hours_a_year / 1e6:.1f} million a year",
        f"one chance in {_figure(10**12 / (one * hours_a_year))} of finding it in a year",
        f"one network tries {one // windows_an_hour * join_windows}: one chance in "
        f"{join_codes / (one // windows_an_hour * join_windows) / 1e9:.1f} billion",
        f"{guesses.KNOWN_WRONG} wrong codes from one network's known phones",
        f"at most {guesses.SHARED_WRONG} + {guesses.QUIET_WRONG} × N",
        f"on the club code {flood_club / 1e6:.0f} million a year, one chance in {_figure(10**12 / flood_club)} a year",
        f"on a join code {guesses.GLOBAL_WRONG * join_windows:,} in its 30 minutes, one in "
        f"{float(f'{join_codes / (guesses.GLOBAL_WRONG * join_windows) / 1e6:.2g}'):.0f} million",
        f"at least {(guesses.CLUB_CODE_WRONG - guesses.SHARED_WRONG) // guesses.QUIET_WRONG} networks",
        f"at least {(guesses.GLOBAL_WRONG - guesses.SHARED_WRONG) // guesses.QUIET_WRONG} networks",
        f"{guesses.SITE_WRONG} wrong codes from one /{guesses.SITE_PREFIX}",
        f"from at least {-(-guesses.CLUB_CODE_WRONG // guesses.SITE_WRONG)} different /{guesses.SITE_PREFIX}",
        f"from at least {-(-guesses.GLOBAL_WRONG // guesses.SITE_WRONG)} different /{guesses.SITE_PREFIX}",
    ]
    for figure in expected:
        assert figure in section, figure
    assert guesses.WINDOW_MINUTES == 10 and "Within any ten minutes" in section
    assert guesses.IPV6_PREFIX == 64 and "/64 prefix" in section


# --------------------------------------------------------------------------- the club's code


def test_a_phone_guessing_the_club_code_locks_out_only_itself(app: Flask) -> None:
    guesser, manager = _phone(app), _phone(app)
    for _ in range(guesses.PHONE_WRONG):
        assert _club(guesser, "1234 5678 9012") == 422
    assert _club(guesser, app.config["CLUB_CODE"]) == 429
    assert _club(manager, app.config["CLUB_CODE"]) == 302  # same Wi-Fi, not locked out
    assert _wrong_count(app) == guesses.PHONE_WRONG


def test_wrong_club_codes_from_every_phone_have_a_ceiling(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(guesses, "CLUB_CODE_WRONG", 2)
    for _ in range(2):
        assert _club(_phone(app), "0000 0000 0000") == 422
    assert _club(_phone(app), app.config["CLUB_CODE"]) == 429
    owner, tid = _owned_table(app)
    assert _join(_phone(app), _new_code(app, owner, tid)) == 302  # join codes have their own count


def test_an_api_client_without_a_session_is_counted_by_its_address(app: Flask) -> None:
    empty = {"format": "referee-export", "version": 1, "tables": []}
    script = app.test_client()
    for _ in range(guesses.PHONE_WRONG):
        answer = script.post(
            f"{API}/import", json=empty, headers={"X-Referee-Club-Code": "1"}, environ_base={"REMOTE_ADDR": "10.9.9.9"}
        )
        assert answer.status_code == 401
    right = {"X-Referee-Club-Code": app.config["CLUB_CODE"]}
    assert (
        script.post(f"{API}/import", json=empty, headers=right, environ_base={"REMOTE_ADDR": "10.9.9.9"}).status_code
        == 429
    )
    assert (
        script.post(f"{API}/import", json=empty, headers=right, environ_base={"REMOTE_ADDR": "10.9.9.8"}).status_code
        == 201
    )


def test_the_club_code_is_twelve_digits_typed_with_or_without_spaces(app: Flask) -> None:
    code = app.config["CLUB_CODE"]
    digits = re.sub(r"\D", "", code)
    assert len(digits) == club.DIGITS == 12
    assert club.shown(digits) == f"{digits[:4]} {digits[4:8]} {digits[8:]}"
    for typed in (
        digits,
        club.shown(digits),
        f"{digits[:4]}-{digits[4:8]}-{digits[8:]}",
        f" {digits[:6]} {digits[6:]} ",
    ):
        phone = _phone(app)
        assert _club(phone, typed) == 302, typed
        assert _manager(phone)


def test_the_session_keeps_a_fingerprint_and_a_new_code_signs_managers_out(app: Flask) -> None:
    phone = _phone(app)
    assert _club(phone, app.config["CLUB_CODE"]) == 302
    with phone.session_transaction() as session:
        kept = session.get(club.SESSION_KEY)
    assert isinstance(kept, str) and re.sub(r"\D", "", app.config["CLUB_CODE"]) not in kept
    assert _manager(phone)
    app.config["CLUB_CODE"] = club.new_code()
    assert not _manager(phone)
    assert phone.post("/players/1/rename", data={"name": "x"}).status_code in (403, 404)


def test_a_phone_flagged_by_an_older_version_is_signed_out(app: Flask) -> None:
    phone = _phone(app)
    with phone.session_transaction() as session:
        session[club.SESSION_KEY] = True
    assert not _manager(phone)


def test_an_old_six_digit_club_code_is_replaced_with_a_notice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "club_code").write_text("123456\n", encoding="ascii")
    code = config.club_code(tmp_path, secret_key="k")
    assert len(re.sub(r"\D", "", code)) == 12
    assert (tmp_path / "club_code").read_text(encoding="ascii").strip() == code
    notice = capsys.readouterr().err
    assert code in notice and "123456" not in notice
    # Every worker starting at once arrives at the same new code.
    assert config.club_code(tmp_path, secret_key="k") == code
    (tmp_path / "club_code").write_text("123456\n", encoding="ascii")
    assert config.club_code(tmp_path, secret_key="k") == code


def test_a_long_club_code_file_is_kept(tmp_path: Path) -> None:
    (tmp_path / "club_code").write_text("1111 2222 3333\n", encoding="ascii")
    assert config.club_code(tmp_path, secret_key="k") == "1111 2222 3333"
    assert (
        config.club_code(tmp_path / "new", secret_key="k")
        == (tmp_path / "new" / "club_code").read_text(encoding="ascii").strip()
    )


def test_the_club_code_command_makes_a_new_code(app: Flask, tmp_path: Path) -> None:
    before = app.config["CLUB_CODE"]
    result = app.test_cli_runner().invoke(args=["club-code"])
    assert result.exit_code == 0, result.output
    written = (Path(app.instance_path) / "club_code").read_text(encoding="ascii").strip()
    assert written != before and len(re.sub(r"\D", "", written)) == 12
    assert written in result.output and "restart" in result.output.lower()
