"""Two-key entry (``Table.two_key``): a hand recorded while it is on waits, "to confirm", until
someone else confirms it: another access (scoring link or join code), or the owner for a
scorer's hand; never the recorder's own access, whatever browser he opens it in. A dispute
flags it for the owner, a confirmation after the dispute settles it. A hand both sides agreed
on is no longer undone or voided by one of them alone: it is corrected, and the correction
waits again. Through the API and the web pages alike.
"""

from __future__ import annotations

import re
import threading
from html import unescape
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from referee import ledger
from referee.extensions import db
from referee.models import Access, HandEvent, Seat

from .api_support import API, all_pass_record, create_table, get_table


def english(client: FlaskClient) -> FlaskClient:
    client.set_cookie("lang", "en")
    return client


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def owner_phone(app: Flask, table: dict[str, Any]) -> FlaskClient:
    phone = english(app.test_client())
    assert phone.post(f"/t/{table['id']}/scorer", data={"token": table["token"]}).status_code == 302
    return phone


def scoring_link(owner: FlaskClient, tid: str) -> str:
    html = owner.post(f"/t/{tid}/share/link").get_data(as_text=True)
    found = re.search(r"data-scoring-link>([^<]+)<", html)
    assert found
    return unescape(found.group(1)).strip().rsplit("/j/", 1)[1]


def scorer_phone(app: Flask, owner: FlaskClient, tid: str) -> FlaskClient:
    phone = english(app.test_client())
    assert phone.get(f"/j/{scoring_link(owner, tid)}").status_code == 302
    return phone


def record_web(phone: FlaskClient, tid: str) -> None:
    """Record the next hand ("everybody passed") from a phone's flow."""
    page = phone.get(f"/t/{tid}/hand", query_string={"ultima": "ouros"}).get_data(as_text=True)
    d = unescape(re.search(r'name="d" value="([^"]*)"', page).group(1))  # type: ignore[union-attr]
    assert phone.post(f"/t/{tid}/hand/all-pass", data={"d": d, "all_pass": "1"}).status_code == 302


def record_api(client: FlaskClient, tid: str, token: str) -> Any:
    dealer = get_table(client, tid)["next_dealer"]
    response = client.post(f"{API}/tables/{tid}/hands", json=all_pass_record(dealer), headers=bearer(token))
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def correct_api(client: FlaskClient, tid: str, number: int, token: str) -> Any:
    """Correct hand ``number`` through the API (the suit was wrong: copas, everybody passed)."""
    body = {**all_pass_record("Dani"), "ultima": "copas", "replaces": number, "reason": "suit"}
    return client.post(f"{API}/tables/{tid}/hands", json=body, headers=bearer(token))


def two_scorers(app: Flask, table: dict[str, Any]) -> tuple[FlaskClient, FlaskClient, FlaskClient]:
    """The owner's phone and two scorers' phones, each through a scoring link of its own."""
    owner = owner_phone(app, table)
    return owner, scorer_phone(app, owner, table["id"]), scorer_phone(app, owner, table["id"])


def status(app: Flask, tid: str, number: int) -> str:
    with app.app_context():
        hand = ledger.get_hand(ledger.get_table(tid), number)
        assert hand is not None
        return hand.status


def flashes(phone: FlaskClient, response: Any, kind: str) -> list[str]:
    """The sentences flashed (of one kind, "success" or "error") on the page a POST led to."""
    html = phone.get(response.headers["Location"]).get_data(as_text=True)
    found = [unescape(m).strip() for m in re.findall(rf'class="flash flash-{kind}"[^>]*>([^<]*)<', html)]
    assert all(text.endswith(".") for text in found), found
    return found


def hand_block(html: str, number: int) -> str:
    found = re.search(rf'<li class="hand[^"]*" id="hand-{number}">(.*?)</li>\s*(?=<li class="hand|</ol>)', html, re.S)
    assert found, f"hand {number} is not on the page"
    return found.group(1)


@pytest.fixture
def table(app: Flask) -> dict[str, Any]:
    return create_table(app.test_client(), two_key=True, language="en")


# --------------------------------------------------------------------------- API


def test_a_table_is_created_with_two_key_and_says_so(app: Flask) -> None:
    client = app.test_client()
    on = create_table(client, two_key=True)
    off = create_table(client)
    assert on["two_key"] is True and off["two_key"] is False
    assert get_table(client, on["id"])["two_key"] is True
    assert get_table(client, off["id"])["two_key"] is False
    for wrong in ("yes", 1, None, [True]):
        response = client.post(
            f"{API}/tables", json={"game": "jubileu", "players": ["Ana", "Bia", "Caio", "Dani"], "two_key": wrong}
        )
        assert response.status_code == 400, wrong
        assert response.get_json()["error"]["field"] == "two_key"


def test_api_hands_wait_for_a_confirmation_and_answer_their_status(app: Flask, table: dict[str, Any]) -> None:
    client = app.test_client()
    tid = table["id"]
    answer = record_api(client, tid, table["token"])
    assert answer["status"] == "to_confirm"
    assert client.get(f"{API}/tables/{tid}/hands/1").get_json()["status"] == "to_confirm"
    assert get_table(client, tid)["hands"][0]["status"] == "to_confirm"
    # The hand counts meanwhile (the table goes on); confirming changes no figure.
    totals = get_table(client, tid)["totals"]
    link = scoring_link(owner_phone(app, table), tid)
    confirmed = client.post(f"{API}/tables/{tid}/hands/1/confirm", headers=bearer(link))
    assert confirmed.status_code == 200
    assert confirmed.get_json()["status"] == "confirmed"
    assert client.get(f"{API}/tables/{tid}/hands/1").get_json()["status"] == "confirmed"
    assert get_table(client, tid)["totals"] == totals
    # Nothing left to confirm: a sentence, 409.
    again = client.post(f"{API}/tables/{tid}/hands/1/confirm", headers=bearer(link))
    assert again.status_code == 409 and again.get_json()["error"]["code"] == "conflict"
    assert client.post(f"{API}/tables/{tid}/hands/9/confirm", headers=bearer(table["token"])).status_code == 404
    assert client.post(f"{API}/tables/{tid}/hands/1/confirm").status_code == 401


def test_the_same_client_cannot_confirm_its_own_hand_through_the_api(app: Flask, table: dict[str, Any]) -> None:
    client = app.test_client()
    tid = table["id"]
    link = scoring_link(owner_phone(app, table), tid)
    record_api(client, tid, link)
    refused = client.post(f"{API}/tables/{tid}/hands/1/confirm", headers=bearer(link))
    assert refused.status_code == 422
    error = refused.get_json()["error"]
    assert error["code"] == "inconsistent_hand" and error["message"].endswith(".")
    assert status(app, tid, 1) == "to_confirm"
    # The owner can: another access than the recorder's.
    assert (
        client.post(f"{API}/tables/{tid}/hands/1/confirm", headers=bearer(table["token"])).get_json()["status"]
        == "confirmed"
    )


def test_the_owner_cannot_confirm_the_owner_s_own_hand_through_the_api(app: Flask, table: dict[str, Any]) -> None:
    client = app.test_client()
    tid = table["id"]
    link = scoring_link(owner_phone(app, table), tid)
    record_api(client, tid, table["token"])
    refused = client.post(f"{API}/tables/{tid}/hands/1/confirm", headers=bearer(table["token"]))
    assert refused.status_code == 422 and refused.get_json()["error"]["code"] == "inconsistent_hand"
    assert status(app, tid, 1) == "to_confirm"
    assert client.post(f"{API}/tables/{tid}/hands/1/confirm", headers=bearer(link)).get_json()["status"] == "confirmed"


def test_another_client_confirms_through_the_api(app: Flask, table: dict[str, Any]) -> None:
    client = app.test_client()
    tid = table["id"]
    owner = owner_phone(app, table)
    first, second = scoring_link(owner, tid), scoring_link(owner, tid)
    record_api(client, tid, first)
    confirmed = client.post(f"{API}/tables/{tid}/hands/1/confirm", headers=bearer(second))
    assert confirmed.status_code == 200, confirmed.get_json()
    assert confirmed.get_json()["status"] == "confirmed"


def test_api_dispute_then_confirm(app: Flask, table: dict[str, Any]) -> None:
    client = app.test_client()
    tid = table["id"]
    owner = owner_phone(app, table)
    link = scoring_link(owner, tid)
    record_api(client, tid, table["token"])
    disputed = client.post(
        f"{API}/tables/{tid}/hands/1/dispute", json={"reason": "Bia had 5 tricks"}, headers=bearer(link)
    )
    assert disputed.status_code == 200
    assert disputed.get_json()["status"] == "disputed"
    assert get_table(client, tid)["hands"][0]["status"] == "disputed"
    # Disputed twice: still disputed (the owner decides); an empty body is fine too.
    assert client.post(f"{API}/tables/{tid}/hands/1/dispute", headers=bearer(link)).get_json()["status"] == "disputed"
    assert (
        client.post(
            f"{API}/tables/{tid}/hands/1/dispute", data="[]", content_type="application/json", headers=bearer(link)
        ).status_code
        == 400
    )
    # The owner recorded it: he cannot settle the dispute by confirming his own hand.
    assert client.post(f"{API}/tables/{tid}/hands/1/confirm", headers=bearer(table["token"])).status_code == 422
    other = scoring_link(owner, tid)
    resolved = client.post(f"{API}/tables/{tid}/hands/1/confirm", headers=bearer(other))
    assert resolved.get_json()["status"] == "confirmed"
    with app.app_context():
        events = db.session.scalars(select(HandEvent).order_by(HandEvent.id)).all()
        assert [e.kind for e in events] == ["dispute", "dispute", "confirm"]
        assert events[0].reason == "Bia had 5 tricks"
        link_id, other_id = db.session.scalars(select(Access.id).order_by(Access.id)).all()
        assert events[0].actor == f"api/scorer:{link_id}" and events[2].actor == f"api/scorer:{other_id}"
    # A confirmed hand can no longer be disputed.
    assert client.post(f"{API}/tables/{tid}/hands/1/dispute", headers=bearer(link)).status_code == 409


def test_a_voided_hand_answers_void(app: Flask, table: dict[str, Any]) -> None:
    client = app.test_client()
    tid = table["id"]
    record_api(client, tid, table["token"])
    voided = client.post(f"{API}/tables/{tid}/hands/1/void", json={"reason": "misdeal"}, headers=bearer(table["token"]))
    assert voided.get_json()["status"] == "void"
    assert client.post(f"{API}/tables/{tid}/hands/1/confirm", headers=bearer(table["token"])).status_code == 409


def test_hands_before_two_key_stay_confirmed_and_after_it_is_off_need_nothing(app: Flask) -> None:
    client = app.test_client()
    table = create_table(client, language="en")
    tid = table["id"]
    owner = owner_phone(app, table)
    before = record_api(client, tid, table["token"])
    assert before.get("status", "confirmed") == "confirmed"
    assert owner.post(f"/t/{tid}/two-key", data={"on": "1"}).status_code == 302
    assert get_table(client, tid)["two_key"] is True
    during = record_api(client, tid, table["token"])
    assert during["status"] == "to_confirm"
    assert status(app, tid, 1) == "confirmed"
    assert client.get(f"{API}/tables/{tid}/hands/1").get_json().get("status", "confirmed") == "confirmed"
    assert client.post(f"{API}/tables/{tid}/hands/1/confirm", headers=bearer(table["token"])).status_code == 409
    assert owner.post(f"/t/{tid}/two-key", data={"on": "0"}).status_code == 302
    after = record_api(client, tid, table["token"])
    assert after.get("status", "confirmed") == "confirmed"
    # Turning it off does not confirm what was waiting.
    assert status(app, tid, 2) == "to_confirm"
    html = english(app.test_client()).get(f"/t/{tid}/history").get_data(as_text=True)
    assert "tag-pending" in hand_block(html, 2)
    assert "tag-pending" not in hand_block(html, 1) and "tag-pending" not in hand_block(html, 3)


# --------------------------------------------------------------------------- web


def test_a_phone_cannot_confirm_its_own_hand_another_phone_can(app: Flask, table: dict[str, Any]) -> None:
    tid = table["id"]
    owner, a, b = two_scorers(app, table)
    record_web(a, tid)
    assert status(app, tid, 1) == "to_confirm"

    # Phone A: the hand is marked, A is told it waits for another phone, and has no Confirm.
    mine = unescape(a.get(f"/t/{tid}").get_data(as_text=True))
    assert re.search(r'class="card pending-note"[^>]*>\D*1\D', mine)
    block = hand_block(mine, 1)
    assert re.search(r'class="tag tag-pending">[^<]+<', block)
    assert f"/t/{tid}/hands/1/confirm" not in block
    assert f"/t/{tid}/hands/1/dispute" in block
    assert re.search(r'</div>\s*<p class="small muted">[^<]+</p>', block)  # "waiting for another phone"
    # Forced anyway: refused with the sentence, nothing changes.
    refused = a.post(f"/t/{tid}/hands/1/confirm")
    assert refused.status_code == 302
    assert flashes(a, refused, "error")
    assert status(app, tid, 1) == "to_confirm"

    # Phone B sees Confirm and confirms.
    theirs = b.get(f"/t/{tid}").get_data(as_text=True)
    assert f"/t/{tid}/hands/1/confirm" in hand_block(theirs, 1)
    done = b.post(f"/t/{tid}/hands/1/confirm")
    assert flashes(b, done, "success")
    assert status(app, tid, 1) == "confirmed"
    for phone in (a, b, owner):
        html = phone.get(f"/t/{tid}").get_data(as_text=True)
        assert "pending-note" not in html and "tag-pending" not in hand_block(html, 1)


def test_the_owner_confirms_a_scorer_s_hand_but_not_the_owner_s_own(app: Flask, table: dict[str, Any]) -> None:
    tid = table["id"]
    owner = owner_phone(app, table)
    record_web(owner, tid)
    block = hand_block(owner.get(f"/t/{tid}").get_data(as_text=True), 1)
    assert f"/t/{tid}/hands/1/confirm" not in block
    assert flashes(owner, owner.post(f"/t/{tid}/hands/1/confirm"), "error")
    assert status(app, tid, 1) == "to_confirm"
    # Through the API with the same owner's token: the same person, still refused.
    assert (
        app.test_client().post(f"{API}/tables/{tid}/hands/1/confirm", headers=bearer(table["token"])).status_code == 422
    )
    # A scorer's hand: the owner is someone else.
    scorer = scorer_phone(app, owner, tid)
    record_web(scorer, tid)
    owner.post(f"/t/{tid}/hands/2/confirm")
    assert status(app, tid, 2) == "confirmed"


def test_a_scorer_opening_his_own_link_in_a_fresh_browser_cannot_confirm_his_hand(
    app: Flask, table: dict[str, Any]
) -> None:
    """The check compares the access the server granted, not the browser's device id."""
    tid = table["id"]
    owner = owner_phone(app, table)
    token = scoring_link(owner, tid)
    first = english(app.test_client())
    assert first.get(f"/j/{token}").status_code == 302
    record_web(first, tid)
    second = english(app.test_client())  # another browser, a new device id, the same link
    assert second.get(f"/j/{token}").status_code == 302
    assert f"/t/{tid}/hands/1/confirm" not in hand_block(second.get(f"/t/{tid}").get_data(as_text=True), 1)
    assert flashes(second, second.post(f"/t/{tid}/hands/1/confirm"), "error")
    assert status(app, tid, 1) == "to_confirm"
    # Through the API with the link's token: refused too.
    assert app.test_client().post(f"{API}/tables/{tid}/hands/1/confirm", headers=bearer(token)).status_code == 422
    assert status(app, tid, 1) == "to_confirm"


def test_undo_does_not_void_a_hand_the_other_side_confirmed(app: Flask, table: dict[str, Any]) -> None:
    tid = table["id"]
    owner, a, b = two_scorers(app, table)
    record_web(a, tid)
    assert f"/t/{tid}/hands/1/undo" in a.get(f"/t/{tid}").get_data(as_text=True)
    b.post(f"/t/{tid}/hands/1/confirm")
    assert status(app, tid, 1) == "confirmed"
    # The undo bar is gone, and the undo sent anyway changes nothing.
    assert f"/t/{tid}/hands/1/undo" not in a.get(f"/t/{tid}").get_data(as_text=True)
    assert flashes(a, a.post(f"/t/{tid}/hands/1/undo"), "error")
    assert status(app, tid, 1) == "confirmed"
    # Nor does a void from the history, by a scorer alone (web or API): a sentence, nothing stored.
    assert a.post(f"/t/{tid}/hands/1/void", data={"reason": "mine"}).status_code == 422
    link = scoring_link(owner, tid)
    refused = app.test_client().post(f"{API}/tables/{tid}/hands/1/void", json={"reason": "x"}, headers=bearer(link))
    assert refused.status_code == 422 and refused.get_json()["error"]["message"].endswith(".")
    assert status(app, tid, 1) == "confirmed"
    # Changing it is a correction, which waits for the other side again.
    fixed = correct_api(app.test_client(), tid, 1, link)
    assert fixed.status_code == 201 and fixed.get_json()["status"] == "to_confirm"
    assert status(app, tid, 1) == "void"
    # The owner decides: he may void a hand both sides agreed on.
    b.post(f"/t/{tid}/hands/2/confirm")
    assert status(app, tid, 2) == "confirmed"
    assert (
        app.test_client()
        .post(f"{API}/tables/{tid}/hands/2/void", json={"reason": "misdeal"}, headers=bearer(table["token"]))
        .status_code
        == 200
    )


def test_a_web_phone_confirms_a_hand_recorded_through_the_api(app: Flask, table: dict[str, Any]) -> None:
    tid = table["id"]
    owner = owner_phone(app, table)
    scorer = scorer_phone(app, owner, tid)
    record_api(app.test_client(), tid, table["token"])
    scorer.post(f"/t/{tid}/hands/1/confirm")
    assert status(app, tid, 1) == "confirmed"


def test_dispute_marks_the_hand_and_a_confirmation_resolves_it(app: Flask, table: dict[str, Any]) -> None:
    tid = table["id"]
    owner, a, b = two_scorers(app, table)
    record_web(a, tid)
    disputed = b.post(f"/t/{tid}/hands/1/dispute", data={"reason": "Caio had the ace"})
    assert flashes(b, disputed, "success")
    assert status(app, tid, 1) == "disputed"
    for phone in (a, b, owner, english(app.test_client())):
        html = unescape(phone.get(f"/t/{tid}").get_data(as_text=True))
        assert re.search(r'class="card pending-note"[^>]*>[^<]*<b>', html)  # "a hand is disputed"
        block = hand_block(html, 1)
        assert "disputed" in block and "tag-pending" not in block
        assert f"/t/{tid}/hands/1/dispute" not in block  # already disputed
    # The recorder still cannot settle it; the owner (or another phone) can.
    a.post(f"/t/{tid}/hands/1/confirm")
    assert status(app, tid, 1) == "disputed"
    owner.post(f"/t/{tid}/hands/1/confirm")
    assert status(app, tid, 1) == "confirmed"
    html = owner.get(f"/t/{tid}").get_data(as_text=True)
    block = hand_block(html, 1)
    assert "pending-note" not in html and "tag-void" not in block and "tag-pending" not in block
    assert "disputed by" in block and "confirmed by the owner" in block  # the history keeps both
    with app.app_context():
        kinds = [(e.kind, e.reason) for e in db.session.scalars(select(HandEvent).order_by(HandEvent.id))]
    assert kinds == [("dispute", "Caio had the ace"), ("confirm", "")]


def test_watchers_see_the_tags_but_no_buttons(app: Flask, table: dict[str, Any]) -> None:
    tid = table["id"]
    record_api(app.test_client(), tid, table["token"])
    watcher = english(app.test_client())
    for path in (f"/t/{tid}", f"/w/{tid}", f"/t/{tid}/history", f"/tv/{tid}"):
        html = watcher.get(path).get_data(as_text=True)
        assert "tag-pending" in html, path
        assert "/hands/1/confirm" not in html and "/hands/1/dispute" not in html, path
    owner = owner_phone(app, table)
    assert "/hands/1/confirm" not in owner.get(f"/w/{tid}").get_data(as_text=True)  # the watch view writes nothing
    assert watcher.post(f"/t/{tid}/hands/1/confirm").status_code == 401
    assert watcher.post(f"/t/{tid}/hands/1/dispute").status_code == 401
    assert status(app, tid, 1) == "to_confirm"


def test_the_pending_note_counts_the_hands_waiting(app: Flask, table: dict[str, Any]) -> None:
    tid = table["id"]
    client = app.test_client()
    for _ in range(3):
        record_api(client, tid, table["token"])
    html = unescape(english(app.test_client()).get(f"/t/{tid}").get_data(as_text=True))
    assert re.search(r'class="card pending-note"[^>]*>\D*3\D', html)
    owner = owner_phone(app, table)
    scorer_phone(app, owner, tid).post(f"/t/{tid}/hands/2/confirm")
    html = unescape(english(app.test_client()).get(f"/t/{tid}").get_data(as_text=True))
    assert re.search(r'class="card pending-note"[^>]*>\D*2\D', html)


def test_the_owner_turns_two_key_on_and_off_from_the_share_page(app: Flask) -> None:
    client = app.test_client()
    table = create_table(client, language="en")
    tid = table["id"]
    owner = owner_phone(app, table)
    share = owner.get(f"/t/{tid}/share").get_data(as_text=True)
    assert re.search(r'name="on" value="1"', share)
    on = owner.post(f"/t/{tid}/two-key", data={"on": "1"})
    assert flashes(owner, on, "success")
    share = owner.get(f"/t/{tid}/share").get_data(as_text=True)
    assert re.search(r'name="on" value="0"', share)
    record_web(owner, tid)
    assert status(app, tid, 1) == "to_confirm"
    off = owner.post(f"/t/{tid}/two-key", data={"on": "0", "next": f"/t/{tid}"})
    assert off.headers["Location"].endswith(f"/t/{tid}")
    assert get_table(client, tid)["two_key"] is False


def test_a_correction_under_two_key_waits_too(app: Flask, table: dict[str, Any]) -> None:
    client = app.test_client()
    tid = table["id"]
    record_api(client, tid, table["token"])
    fixed = correct_api(client, tid, 1, table["token"])
    assert fixed.status_code == 201
    assert fixed.get_json()["status"] == "to_confirm"
    assert client.get(f"{API}/tables/{tid}/hands/1").get_json()["status"] == "void"


def test_a_scorer_cannot_remove_an_agreed_hand_by_correcting_it_then_voiding_the_correction(
    app: Flask, table: dict[str, Any]
) -> None:
    tid = table["id"]
    owner, a, b = two_scorers(app, table)
    link = scoring_link(owner, tid)
    client = app.test_client()
    record_web(a, tid)
    b.post(f"/t/{tid}/hands/1/confirm")
    # A correction of the agreed hand, then a correction of that correction: each waits.
    for number in (1, 2):
        fixed = correct_api(client, tid, number, link)
        assert fixed.status_code == 201 and fixed.get_json()["status"] == "to_confirm"
    # Voiding the last correction would leave the agreed hand void with nothing in its place.
    refused = client.post(f"{API}/tables/{tid}/hands/3/void", json={"reason": "x"}, headers=bearer(link))
    assert refused.status_code == 422
    assert a.post(f"/t/{tid}/hands/3/void", data={"reason": "mine"}).status_code == 422
    assert status(app, tid, 3) == "to_confirm"
    # The owner may.
    assert (
        client.post(
            f"{API}/tables/{tid}/hands/3/void", json={"reason": "x"}, headers=bearer(table["token"])
        ).status_code
        == 200
    )


def test_a_write_judges_the_hand_as_the_lock_shows_it_not_as_read_before(app: Flask, table: dict[str, Any]) -> None:
    """A request that read a hand (to offer its undo) and then waited for the table's lock must
    see the confirmation that committed meanwhile."""
    from referee.rules.errors import InconsistentHand

    tid = table["id"]
    owner, a, b = two_scorers(app, table)
    record_web(a, tid)
    with app.app_context():
        stale = ledger.get_table(tid)
        seen = ledger.get_hand(stale, 1)  # held, as a request holds what it read
        assert seen is not None and seen.status == "to_confirm"
        # Another phone's request, in a thread of its own (so another session), commits.
        other = threading.Thread(target=b.post, args=(f"/t/{tid}/hands/1/confirm",))
        other.start()
        other.join()
        with pytest.raises(InconsistentHand):
            ledger.void_hand(stale, 1, owner=False, reason="undo", actor="scorer:1@aaaaaa")
        db.session.rollback()
    assert status(app, tid, 1) == "confirmed"


def test_a_hand_waiting_for_its_confirmation_counts_in_no_standing_until_confirmed(
    app: Flask, table: dict[str, Any]
) -> None:
    """The league, the player page and the standings leave a waiting hand out, as the club night
    does; confirmed, it counts everywhere."""
    from referee import league

    client = app.test_client()
    tid = table["id"]
    solo = {
        "dealer": "Dani",
        "ultima": "copas",
        "auction": [["Ana", "solo_sete"], ["Bia", "passo"], ["Caio", "passo"], ["Dani", "passo"]],
        "trump": "espadas",
        "tricks": {"Ana": 9, "Bia": 2, "Caio": 1, "Dani": 1},
    }
    response = client.post(f"{API}/tables/{tid}/hands", json=solo, headers=bearer(table["token"]))
    assert response.status_code == 201 and response.get_json()["status"] == "to_confirm"

    def ana() -> tuple[int, int]:
        with app.app_context():
            row = next((r for r in league.standings("jubileu") if r.name == "Ana"), None)
            return (row.net, row.hands) if row else (0, 0)

    assert ana() == (0, 0)
    with app.app_context():
        member = db.session.scalar(select(Seat.member_id).where(Seat.table_id == tid, Seat.name == "Ana"))
    page = english(client).get(f"/players/{member}").get_data(as_text=True)
    assert "No hand played yet." in page
    link = scoring_link(owner_phone(app, table), tid)
    assert client.post(f"{API}/tables/{tid}/hands/1/confirm", headers=bearer(link)).status_code == 200
    net, hands = ana()
    assert hands == 1 and net > 0
    assert "No hand played yet." not in english(client).get(f"/players/{member}").get_data(as_text=True)


def test_the_settle_page_says_its_payments_count_a_hand_still_waiting(app: Flask, table: dict[str, Any]) -> None:
    """A table's own settle page counts a waiting hand, as its balances do, and says so: the
    payments may still change, and the club night leaves the table out until it is confirmed."""
    client = english(app.test_client())
    tid = table["id"]
    record_api(client, tid, table["token"])
    warning = "These payments already count it"
    page = client.get(f"/t/{tid}/settle").get_data(as_text=True)
    assert "1 hand is waiting for a confirmation from another phone." in page
    assert warning in page
    link = scoring_link(owner_phone(app, table), tid)
    assert client.post(f"{API}/tables/{tid}/hands/1/confirm", headers=bearer(link)).status_code == 200
    assert warning not in client.get(f"/t/{tid}/settle").get_data(as_text=True)


def test_a_hand_confirmed_after_a_dispute_counts_in_the_league(app: Flask, table: dict[str, Any]) -> None:
    """The latest word wins, in SQL as on the hand: disputed, a hand counts nowhere; confirmed
    after the dispute, it counts in the standings as it does on its table."""
    from referee import league

    client = app.test_client()
    tid = table["id"]
    record_api(client, tid, table["token"])
    link = scoring_link(owner_phone(app, table), tid)

    def counted_hands() -> int:
        with app.app_context():
            return max((r.hands for r in league.standings("jubileu")), default=0)

    dispute = {"reason": "Bia had 5 tricks"}
    assert client.post(f"{API}/tables/{tid}/hands/1/dispute", json=dispute, headers=bearer(link)).status_code == 200
    assert counted_hands() == 0
    assert client.post(f"{API}/tables/{tid}/hands/1/confirm", headers=bearer(link)).status_code == 200
    assert status(app, tid, 1) == "confirmed"
    assert counted_hands() == 1
