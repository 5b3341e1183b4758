"""Where a page sends the phone back to (``next``, a referrer) is a clean path on this site or
nothing: browsers drop tabs and newlines from a URL, so "/<tab>/evil.example" would become
"//evil.example", another site; and a newline in a header is a crash, not a redirect."""

from __future__ import annotations

import pytest
from flask import Flask

from referee.inputs import local_path

REFUSED = [
    "//evil.example",
    "/\\evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "\t//evil.example",
    " //evil.example",
    "/ok\nSet-Cookie: x=1",
    "/\x00",
    "/\u2028/evil.example",
    "/\u00a0/evil.example",
    "https://evil.example/",
    "javascript:alert(1)",
    "evil.example",
    "",
    None,
]


@pytest.mark.parametrize("value", REFUSED)
def test_anything_but_a_clean_path_goes_to_the_default(value: str | None) -> None:
    assert local_path(value, "/home") == "/home"


@pytest.mark.parametrize("value", ["/", "/c/abc/r/1?check=1", "/t/x#hands", "/players?q=Zé"])
def test_a_clean_path_is_followed(value: str) -> None:
    assert local_path(value, "/home") == value


@pytest.mark.parametrize("raw", ["/%09/evil.example", "/%0a/evil.example", "%0a", "/%0d%0a/x", "/ok%0aX:1"])
def test_the_club_page_never_leaves_the_site(app: Flask, raw: str) -> None:
    answer = app.test_client().post(f"/club?next={raw}", data={"code": app.config["CLUB_CODE"]})
    assert answer.status_code == 302
    assert answer.headers["Location"] == "/players"


def test_the_club_page_follows_a_clean_next(app: Flask) -> None:
    answer = app.test_client().post("/club?next=/c/new%3Fgame%3Dquatrilho", data={"code": app.config["CLUB_CODE"]})
    assert answer.headers["Location"] == "/c/new?game=quatrilho"


def test_the_language_switch_goes_back_only_to_a_clean_path(client) -> None:
    tricky = client.get("/lang/en", headers={"Referer": "http://localhost/%09/evil.example"})
    assert tricky.headers["Location"] in ("/", "/%09/evil.example")
    assert not tricky.headers["Location"].startswith("//")
    back = client.get("/lang/en", headers={"Referer": "http://localhost/tables/new?game=samba"})
    assert back.headers["Location"] == "/tables/new?game=samba"


@pytest.mark.parametrize("referrer", ["http://[::1/x", "http://[x]/tables", "http://a]b/", "http://[::1"])
def test_a_referrer_no_url_parser_reads_goes_home(client, referrer: str) -> None:
    """A Referer is whatever the client sends: one that is no URL at all is no way back, and
    never an error page."""
    answer = client.get("/lang/en", headers={"Referer": referrer})
    assert answer.status_code == 302
    assert answer.headers["Location"] == "/"
