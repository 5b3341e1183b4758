"""What a phone carries (referee/phone.py, referee/keyring.py) and how hand-over links behave.

The session cookie is signed, not encrypted, and travels in clear on plain http: it carries a
random key and no token; the server keeps, under the key's hash, the hashes of the tokens the
phone holds. A phone with a cookie made the old way keeps its rights, and its tokens leave the
cookie, and a new key each time it gains a way in (a planted cookie collects nothing). A token
is held by a bounded number of phones. A hand-over link works once, and only when opened as a
link; revoking an access revokes what was made through it. A phone keeps its rights across a
backup restored into an empty database (same secret key).
"""

from __future__ import annotations

import hashlib
import json
import re
from html import unescape

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from referee import access, exports, keyring, ledger, phone
from referee.extensions import db
from referee.models import Access, PhoneHold

from .api_support import all_pass_record, create_table, post_hand
from .test_access import all_pass_form, english, join_code, redeem, redeemed_token, scoring_link


def cookie(client: FlaskClient) -> dict[str, object]:
    """The session as it travels: the cookie's payload, decoded (it is only signed)."""
    app = client.application
    sent = client.get_cookie("session")
    assert sent is not None
    loaded = app.session_interface.get_signing_serializer(app).loads(sent.value)  # type: ignore[attr-defined]
    return dict(loaded)


def owner_phone(app: Flask) -> tuple[FlaskClient, str, str]:
    """A phone holding a new table's own token: answers it, the table's id and the token."""
    made = create_table(app.test_client(), language="en")
    owner = english(app.test_client())
    assert owner.post(f"/t/{made['id']}/scorer", data={"token": made["token"]}).status_code == 302
    return owner, made["id"], made["token"]


def hand_over_link(owner: FlaskClient, tid: str, label: str = "") -> str:
    """The token of a new hand-over link, as its page shows it."""
    page = owner.post(f"/t/{tid}/share/owner", data={"label": label}).get_data(as_text=True)
    found = re.search(r"data-scoring-link>([^<]+)<", page)
    assert found
    return unescape(found.group(1)).strip().rsplit("/j/", 1)[1]


def access_of(app: Flask, label: str) -> int:
    with app.app_context():
        return db.session.scalars(select(Access.id).where(Access.label == label)).one()


def scores(client: FlaskClient, tid: str) -> bool:
    return client.get(f"/t/{tid}/hand").status_code == 200


def owns(client: FlaskClient, tid: str) -> bool:
    """The phone has the owner's controls: its share page offers to end the table."""
    return f'action="/t/{tid}/end"' in client.get(f"/t/{tid}/share").get_data(as_text=True)


# --------------------------------------------------------------------------- the cookie


def test_the_cookie_carries_a_random_key_and_no_token(app: Flask) -> None:
    owner, tid, token = owner_phone(app)
    link, _page = scoring_link(owner, tid, "link")
    code, _page = join_code(owner, tid, "code")
    handed = hand_over_link(owner, tid, "Bia")
    by_link, by_code, bia = (english(app.test_client()) for _ in range(3))
    assert by_link.get(f"/j/{link}").status_code == 302
    code_token = redeemed_token(by_code, code)
    assert bia.get(f"/j/{handed}").status_code == 302
    secrets_ = [token, link, code, code.replace("-", ""), code_token, handed]
    keys = []
    for client in (owner, by_link, by_code, bia):
        assert scores(client, tid)
        travels = json.dumps(cookie(client))
        for secret in secrets_:
            assert secret not in travels
            assert hashlib.sha256(secret.encode()).hexdigest() not in travels
        key = cookie(client)[phone.KEY]
        assert isinstance(key, str) and len(key) >= 32  # at least 128 random bits, base64url
        keys.append(key)
    assert len(set(keys)) == 4
    with app.app_context():  # the server keeps the keys' hashes only
        stored = {row.phone_hash for row in db.session.scalars(select(PhoneHold))}
        dump = " ".join(repr(tuple(row)) for row in db.session.execute(select(PhoneHold.__table__)))
    assert stored == {hashlib.sha256(k.encode()).hexdigest() for k in keys}
    assert not any(k in dump for k in keys)
    assert owns(owner, tid) and owns(bia, tid) and not owns(by_link, tid)


def test_a_cookie_made_the_old_way_keeps_its_rights_and_loses_its_tokens(app: Flask) -> None:
    owner, tid, token = owner_phone(app)
    link, _page = scoring_link(owner, tid, "old link")
    other = create_table(app.test_client(), language="en")
    old = english(app.test_client())
    with old.session_transaction() as session:  # as an older version left it
        session["device"] = "a1b2c3"
        session["scorer_tokens"] = {tid: token, other["id"]: other["token"], "gone-table-id": "x" * 43}
        session["owned_tables"] = [tid, other["id"]]
        session["table_order"] = [other["id"], tid, "gone-table-id"]
        session["seen_tables"] = {tid: 1}
    assert old.get("/").status_code == 200
    travels = cookie(old)
    assert "scorer_tokens" not in travels and "owned_tables" not in travels
    assert token not in json.dumps(travels) and other["token"] not in json.dumps(travels)
    assert travels["device"] == "a1b2c3"
    assert owns(old, tid) and owns(old, other["id"])
    home = old.get("/").get_data(as_text=True)
    assert tid in home and other["id"] in home
    scorer = english(app.test_client())
    with scorer.session_transaction() as session:
        session["scorer_tokens"] = {tid: link}
    assert scores(scorer, tid) and not owns(scorer, tid)
    assert "scorer_tokens" not in cookie(scorer)


def holds(app: Flask, client: FlaskClient) -> dict[str, str]:
    """What the server keeps for this phone: table id -> token hash."""
    with app.app_context():
        return keyring.held(hashlib.sha256(str(cookie(client)[phone.KEY]).encode()).hexdigest())


def test_a_planted_cookie_collects_nothing_the_phone_gains(app: Flask) -> None:
    owner, tid, _token = owner_phone(app)
    planter, planters_tid, _ = owner_phone(app)
    planted = planter.get_cookie("session")
    assert planted is not None
    victim = english(app.test_client())
    victim.set_cookie("session", planted.value)  # left on the victim's phone beforehand
    assert victim.get(f"/j/{hand_over_link(owner, tid, 'Bia')}").status_code == 302
    assert owns(victim, tid) and owns(victim, planters_tid)  # what the old key held moved along
    assert not owns(planter, tid) and not scores(planter, tid)
    assert cookie(victim)[phone.KEY] != cookie(planter)[phone.KEY]
    assert holds(app, planter) == {}  # the old key's rows went once the phone came back with its new key


def test_a_phone_whose_answer_was_lost_keeps_what_it_held(app: Flask) -> None:
    """A new key reaches the phone with the answer that gives it: lost on the way, the phone goes
    on with its old key, which still holds what it held."""
    owner, tid, _token = owner_phone(app)
    other_owner, other_tid, _ = owner_phone(app)
    link, _page = scoring_link(other_owner, other_tid, "qr")
    before = owner.get_cookie("session")
    assert before is not None
    assert owner.get(f"/j/{link}").status_code == 302
    owner.set_cookie("session", before.value)  # the answer never arrived
    assert owns(owner, tid) and not scores(owner, other_tid)
    assert owner.get(f"/j/{link}").status_code == 302  # tapped again
    assert owns(owner, tid) and scores(owner, other_tid)


def test_a_token_is_held_by_a_bounded_number_of_phones(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(keyring, "HOLDERS", 3, raising=False)
    owner, tid, _token = owner_phone(app)
    link, _page = scoring_link(owner, tid, "qr")
    phones = [english(app.test_client()) for _ in range(6)]
    for client in phones:  # a script without cookies: a new phone each time
        assert client.get(f"/j/{link}").status_code == 302
    with app.app_context():
        rows = db.session.scalars(select(PhoneHold).where(PhoneHold.token_hash == access.hash_secret(link))).all()
    assert len(rows) == 3
    assert all(scores(c, tid) for c in phones[-3:]) and not any(scores(c, tid) for c in phones[:3])
    assert owns(owner, tid)


# --------------------------------------------------------------------------- hand-over links


def test_an_unopened_hand_over_link_gives_nothing_but_through_its_link(app: Flask) -> None:
    owner, tid, _token = owner_phone(app)
    handed = hand_over_link(owner, tid, "Bia")
    for _ in range(2):  # pasted where a scorer's token goes, it makes no owner and is not spent
        pasted = english(app.test_client())
        assert pasted.post(f"/t/{tid}/scorer", data={"token": handed}).status_code == 302
        assert not owns(pasted, tid) and not scores(pasted, tid)
    api = app.test_client()
    assert post_hand(api, {"id": tid}, all_pass_record("Ana"), token=handed).status_code == 401
    bia = english(app.test_client())
    assert bia.get(f"/j/{handed}").status_code == 302 and owns(bia, tid)


def test_an_owner_opening_his_own_hand_over_link_keeps_it_for_the_next_phone(app: Flask) -> None:
    owner, tid, token = owner_phone(app)
    handed = hand_over_link(owner, tid, "Bia")
    assert owner.get(f"/j/{handed}").status_code == 302 and owns(owner, tid)
    assert holds(app, owner)[tid] == access.hash_secret(token)  # still the table's own token
    bia = english(app.test_client())
    assert bia.get(f"/j/{handed}").status_code == 302 and owns(bia, tid)
    assert owns(owner, tid)


def test_a_hand_over_link_works_once(app: Flask) -> None:
    owner, tid, _token = owner_phone(app)
    handed = hand_over_link(owner, tid, "Bia")
    bia, carl = english(app.test_client()), english(app.test_client())
    assert bia.get(f"/j/{handed}").status_code == 302 and owns(bia, tid)
    refused = carl.get(f"/j/{handed}")
    assert refused.status_code == 403
    assert "works only once" in refused.get_data(as_text=True)
    assert not scores(carl, tid) and not owns(carl, tid)
    # The phone that opened it may open it again (a second tap, a reload): nothing changes.
    assert bia.get(f"/j/{handed}").status_code == 302 and owns(bia, tid)
    with app.app_context():  # the link's own token is no credential any more, not even for the API
        assert access.grant(ledger.get_table(tid), handed) == access.WATCHING
    # A scoring link stays open to every phone that scans it (a QR code on the table).
    link, _page = scoring_link(owner, tid, "qr")
    for _ in range(2):
        phone_ = english(app.test_client())
        assert phone_.get(f"/j/{link}").status_code == 302 and scores(phone_, tid)


def test_revoking_a_hand_over_revokes_every_way_in_made_through_it(app: Flask) -> None:
    owner, tid, _token = owner_phone(app)
    bia, carl, dan, eve, fay, kept = (english(app.test_client()) for _ in range(6))
    assert bia.get(f"/j/{hand_over_link(owner, tid, 'Bia')}").status_code == 302
    assert carl.get(f"/j/{hand_over_link(bia, tid, 'Carl')}").status_code == 302  # made by Bia
    assert dan.get(f"/j/{scoring_link(bia, tid, 'Dan')[0]}").status_code == 302
    unused, _page = join_code(bia, tid, "unused")
    assert eve.get(f"/j/{scoring_link(carl, tid, 'Eve')[0]}").status_code == 302  # made by Carl
    assert redeem(fay, join_code(carl, tid, "Fay")[0]).status_code == 302
    assert kept.get(f"/j/{scoring_link(owner, tid, 'kept')[0]}").status_code == 302
    assert all(scores(c, tid) for c in (bia, carl, dan, eve, fay, kept))
    assert owner.post(f"/t/{tid}/access/{access_of(app, 'Bia')}/revoke").status_code == 302
    for client in (bia, carl, dan, eve, fay):
        assert client.get(f"/t/{tid}/hand").status_code == 403  # told its access was cancelled
        assert not owns(client, tid)
    assert redeem(english(app.test_client()), unused).status_code == 422
    assert scores(kept, tid) and owns(owner, tid)
    with app.app_context():
        live = {a.label for a in access.accesses(ledger.get_table(tid))}
    assert live == {"kept"}


# --------------------------------------------------------------------------- backup and restore


def test_a_phone_keeps_scoring_after_a_backup_is_restored_into_an_empty_database(app: Flask, make_app: object) -> None:
    owner, tid, _token = owner_phone(app)
    scorer = english(app.test_client())
    assert scorer.get(f"/j/{scoring_link(owner, tid, 'Bia')[0]}").status_code == 302
    assert scorer.post(f"/t/{tid}/hand/all-pass", data=all_pass_form(1, "k1")).status_code in (200, 302, 303)
    with app.app_context():
        document = json.loads(json.dumps(exports.backup()))
    restored = make_app(empty=True)  # type: ignore[operator]
    with restored.app_context():
        exports.restore(document)
    phones = {}
    for name, before in (("owner", owner), ("scorer", scorer)):
        after = english(restored.test_client())
        sent = before.get_cookie("session")
        assert sent is not None
        after.set_cookie("session", sent.value)
        phones[name] = after
    assert owns(phones["owner"], tid)
    assert not owns(phones["scorer"], tid)
    response = phones["scorer"].post(f"/t/{tid}/hand/all-pass", data=all_pass_form(2, "k2"))
    assert response.status_code in (200, 302, 303)
    with restored.app_context():
        assert ledger.next_number(ledger.get_table(tid)) == 3
