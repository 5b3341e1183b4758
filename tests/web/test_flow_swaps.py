"""A hand's taps answer with only what changes: the page's script (static/js/swap.js) follows the
flow's links and forms (data-swap-main on its <main>) and swaps <main>, and the answer is only the
title and <main>; saving from the page answers the table page itself in one round trip (its
address in X-Swap-Push-Url). Without JavaScript every step stays a plain page, and saving a redirect."""

from __future__ import annotations

from flask import Flask

from referee.security import CSP

from .api_support import create_table
from .test_live import OUTBOX, all_pass_draft, owner_phone

SWAP = {"X-Swap": "true"}
MAIN = {**SWAP, "X-Swap-Main": "true"}


def test_a_flow_page_boosts_its_main_and_the_table_page_its_next_hand(app: Flask) -> None:
    table = create_table(app.test_client())
    phone = owner_phone(app, table)
    step = phone.get(f"/t/{table['id']}/hand")
    html = step.get_data(as_text=True)
    assert 'src="/static/js/swap.js?v=' in html
    assert '<main id="main" class="page" data-swap-main' in html  # then the hand's draft place
    assert step.headers["Content-Security-Policy"] == CSP
    # The table page: only its next hand's links and forms swap, so its first step comes like the others.
    table_page = phone.get(f"/t/{table['id']}").get_data(as_text=True)
    assert table_page.count("data-swap-main") == 1
    assert '<section class="card next-hand" aria-labelledby="next-h" data-swap-main>' in table_page


def test_a_boosted_step_answers_only_its_title_and_main(app: Flask) -> None:
    table = create_table(app.test_client())
    phone = owner_phone(app, table)
    whole = phone.get(f"/t/{table['id']}/hand", query_string={"ultima": "ouros"})
    assert "<head>" in whole.get_data(as_text=True) and "site-header" in whole.get_data(as_text=True)
    boosted = phone.get(f"/t/{table['id']}/hand", query_string={"ultima": "ouros"}, headers=MAIN)
    assert boosted.status_code == 200
    # Only the title and <main>: the header, styles and scripts are already on the phone.
    html = boosted.get_data(as_text=True)
    assert html.lstrip().startswith("<title>") and html.rstrip().endswith("</main>")
    assert "<head" not in html and "site-header" not in html and "<script" not in html
    assert '<main id="main" class="page" data-swap-main' in html  # then the hand's draft place
    assert "X-Swap-Main" in boosted.headers["Vary"]
    # Samba's live score and the Derby's race are the script's requests too, for a part of a page.
    partial = phone.get(f"/t/{table['id']}/hand", query_string={"ultima": "ouros"}, headers=SWAP)
    assert "<head>" in partial.get_data(as_text=True)


def test_a_boosted_tap_refused_or_lost_answers_main_too(app: Flask) -> None:
    """Whichever view answers a boosted tap, an error page too, the answer is its <main>."""
    table = create_table(app.test_client())
    phone = owner_phone(app, table)
    lost = phone.get(f"/t/{table['id']}/hands/99/saved", headers=MAIN)
    assert lost.status_code == 404
    html = lost.get_data(as_text=True)
    assert html.lstrip().startswith("<title>") and "<body" not in html and 'id="main"' in html
    whole = phone.get(f"/t/{table['id']}/hands/99/saved")
    assert whole.status_code == 404 and "<body" in whole.get_data(as_text=True)


def test_saving_from_the_page_answers_the_table_page_at_once(app: Flask) -> None:
    table = create_table(app.test_client())
    tid = table["id"]
    phone = owner_phone(app, table)
    saved = phone.post(
        f"/t/{tid}/hand/all-pass",
        data={"d": all_pass_draft(phone, tid), "all_pass": "1"},
        headers={**OUTBOX, **SWAP},
    )
    assert saved.status_code == 200
    assert saved.mimetype == "text/html"
    assert saved.headers["X-Swap-Push-Url"] == f"/t/{tid}"
    html = saved.get_data(as_text=True)
    # The table page, with the undo bar of the hand just saved and its flashed message.
    assert 'id="hand-1"' in html and "undo-bar" in html and f"/t/{tid}/hands/1/undo" in html
    assert html.lstrip().startswith("<title>") and "<head" not in html  # <main> is all it swaps
    # The flash was shown once: the next visit does not repeat it.
    assert "undo-bar" not in phone.get(f"/t/{tid}/history").get_data(as_text=True)
