"""Back after a save goes back to the step the hand was saved from, as with plain pages, even
when that step was the first page of the flow (a plain page load, not a swap)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.jubileu_steps import create_table
from tests.e2e.sharing_steps import all_pass_button, start_all_pass, tap_all_pass

pytestmark = pytest.mark.e2e


def test_back_after_saving_from_the_first_step_shows_that_step(page: Any, live_server: str) -> None:
    tid = create_table(page, live_server)
    start_all_pass(page)
    step = page.url
    tap_all_pass(page)
    page.wait_for_url(f"{live_server}/t/{tid}")
    expect(page.locator("#main .scoreboard")).to_be_visible()
    page.go_back()
    page.wait_for_url(step)
    expect(all_pass_button(page)).to_be_visible()
    expect(page.locator("#main .scoreboard")).to_have_count(0)
