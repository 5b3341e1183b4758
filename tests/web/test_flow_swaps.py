"""A hand's taps answer with only what changes: htmx follows the flow's links and forms (hx-boost on
its <main>) and swaps <main>; saving from the page answers the table page itself in one round trip
(its address in HX-Push-Url). Without htmx every step stays a plain page, and saving a redirect."""

from __future__ import annotations

from flask import Flask

from referee.security import CSP
from referee.views.flow import SWAP_MAIN

from .api_support import create_table
from .test_live import OUTBOX, all_pass_draft, owner_phone

HTMX = {"HX-Request": "true"}
BOOSTED = {**HTMX, "HX-Boosted": "true"}


def test_a_flow_page_loads_htmx_and_boosts_its_main(app: Flask) -> None:
    table = create_table(app.test_client())
    phone = owner_phone(app, table)
    step = phone.get(f"/t/{table['id']}/hand")
    html = step.get_data(as_text=True)
    assert 'src="/static/vendor/htmx-2.0.11.min.js?v=' in html
    assert '<main id="main" class="page" hx-boost="true">' in html
    assert '"includeIndicatorStyles": false' in html  # no inline style: the CSP holds
    assert step.headers["Content-Security-Policy"] == CSP
    assert not set(SWAP_MAIN) & set(step.headers.keys())  # a plain GET is a plain page
    table_page = phone.get(f"/t/{table['id']}").get_data(as_text=True)
    assert "htmx" not in table_page and "hx-boost" not in table_page


def test_a_boosted_step_swaps_only_main(app: Flask) -> None:
    table = create_table(app.test_client())
    phone = owner_phone(app, table)
    boosted = phone.get(f"/t/{table['id']}/hand", query_string={"ultima": "ouros"}, headers=BOOSTED)
    assert boosted.status_code == 200
    assert {name: boosted.headers[name] for name in SWAP_MAIN} == SWAP_MAIN
    # Samba's live score and the Derby's race are htmx requests too, with their own targets.
    partial = phone.get(f"/t/{table['id']}/hand", query_string={"ultima": "ouros"}, headers=HTMX)
    assert not set(SWAP_MAIN) & set(partial.headers.keys())


def test_saving_from_the_page_answers_the_table_page_at_once(app: Flask) -> None:
    table = create_table(app.test_client())
    tid = table["id"]
    phone = owner_phone(app, table)
    saved = phone.post(
        f"/t/{tid}/hand/all-pass",
        data={"d": all_pass_draft(phone, tid), "all_pass": "1"},
        headers={**OUTBOX, **HTMX},
    )
    assert saved.status_code == 200
    assert saved.mimetype == "text/html"
    assert saved.headers["HX-Push-Url"] == f"/t/{tid}"
    html = saved.get_data(as_text=True)
    # The table page, with the undo bar of the hand just saved and its flashed message.
    assert 'id="hand-1"' in html and "undo-bar" in html and f"/t/{tid}/hands/1/undo" in html
    # The flash was shown once: the next visit does not repeat it.
    assert "undo-bar" not in phone.get(f"/t/{tid}/history").get_data(as_text=True)
