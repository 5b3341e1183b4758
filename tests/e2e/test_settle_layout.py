"""The settle pages at 390x844 with long names: in every payment line each name keeps to its own
box, with a space between it and the verb, and never runs past the card's edge."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.web.api_support import solo_record

pytestmark = pytest.mark.e2e

#: A long name, a short one that ends right before the verb, a single word of 39 letters.
SEATS = ("Maria de Lourdes Conceição", "Lurdes", "Bartolomeuquintinoferreiradiasdasilvaxx", "Zé")

#: For each payment line: the boxes of its names, of the words between them, and of the card.
BOXES = """rows => rows.map(li => {
    const card = li.closest('.card').getBoundingClientRect();
    const names = [...li.querySelectorAll('bdi')];
    const words = [];
    for (const node of li.childNodes) {
        if (node.nodeType !== Node.TEXT_NODE || !node.textContent.trim()) continue;
        const range = document.createRange();
        const start = node.textContent.search(/\\S/);
        range.setStart(node, start);
        range.setEnd(node, start + node.textContent.trim().length);
        words.push(...[...range.getClientRects()].map(r => [r.left, r.top, r.right, r.bottom]));
    }
    return {
        text: li.textContent.trim(),
        card: [card.left, card.right],
        names: names.flatMap(n => [...n.getClientRects()].map(r => [r.left, r.top, r.right, r.bottom])),
        words,
    };
})"""


def _table(live_app, chip_value: str) -> str:  # type: ignore[no-untyped-def]
    """Four solos, made and lost, so that every name pays or is paid."""
    api = live_app.test_client()
    table = api.post(
        "/api/v1/tables", json={"game": "jubileu", "players": list(SEATS), "options": {"chip_value": chip_value}}
    ).get_json()
    dealer = SEATS[-1]
    for tricks in (9, 3, 8, 2):
        response = api.post(
            f"/api/v1/tables/{table['id']}/hands",
            json=solo_record(dealer, tricks, players=SEATS),
            headers={"Authorization": f"Bearer {table['token']}"},
        )
        assert response.status_code == 201, response.get_data(as_text=True)
        dealer = response.get_json()["next_dealer"]
    return str(table["id"])


def _overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def _check_lines(page, url: str, shot, name: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(url)
    expect(page.locator(".transfers li").first).to_be_visible()
    shot(page, name)
    lines = page.locator(".transfers li").evaluate_all(BOXES)
    assert lines
    for line in lines:
        assert len(line["names"]) >= 2 and line["words"], line
        for box in line["names"]:
            assert line["card"][0] <= box[0] and box[2] <= line["card"][1], line  # never past the card
            for word in line["words"]:
                assert not _overlap(box, word), line  # the name's box never covers the verb
                same_line = abs(box[1] - word[1]) < 2
                if same_line and word[0] >= box[2] - 0.5:
                    assert word[0] - box[2] >= 3 or word[0] - box[2] < -0.5, line  # a space between


#: Each word of each name in the results: how many lines it takes, and whether it fits its card.
WORDS = """names => names.flatMap(n => {
    const card = n.closest('.card').getBoundingClientRect();
    const text = n.firstChild;
    const found = [];
    for (const m of text.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(text, m.index);
        range.setEnd(text, m.index + m[0].length);
        const rects = [...range.getClientRects()];
        const tops = rects.filter(r => r.width > 0).map(r => r.top).sort((a, b) => a - b);
        const lines = tops.filter((top, i) => i === 0 || top - tops[i - 1] > 4).length;
        found.push({word: m[0], lines, tops,
                    inside: rects.every(r => r.left >= card.left && r.right <= card.right)});
    }
    return found;
})"""


def _check_names(page) -> None:  # type: ignore[no-untyped-def]
    """Every word of a name that fits a line stays whole ("Conceição", never "Conceiç / ão")."""
    words = page.locator(".balance-row .who bdi").evaluate_all(WORDS)
    assert words
    for word in words:
        assert word["inside"], word
        if len(word["word"]) <= 12:
            assert word["lines"] == 1, word


def test_payment_lines_keep_each_name_apart_from_the_verb(page, live_server, live_app, shot) -> None:  # type: ignore[no-untyped-def]
    one, two = _table(live_app, "1.00"), _table(live_app, "0.50")
    _check_lines(page, f"{live_server}/t/{one}/settle", shot, "settle-long-names")
    _check_names(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    _check_lines(page, f"{live_server}/night/settle?t={one}&t={two}", shot, "night-settle-long-names")
    _check_names(page)  # in money, the amounts are wider: the names still keep their words whole
    _check_lines(page, f"{live_server}/t/{one}", shot, "table-long-names")
    _check_names(page)


#: Each row of the hand's preview: the name's box and the words' ("paga 10 fichas") box.
PREVIEW = """rows => rows.map(li => {
    const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
    const card = li.closest('.card') || li.parentElement;
    return {text: li.textContent.trim(), who: box(li.querySelector('.who')),
            net: li.querySelector('.net') ? box(li.querySelector('.net')) : null, card: box(card)};
})"""


def test_the_hand_preview_keeps_a_gap_between_a_long_name_and_what_it_pays(page, live_server, shot) -> None:  # type: ignore[no-untyped-def]
    from tests.e2e import jubileu_steps, steps

    steps.create_table(page, live_server, "jubileu", SEATS)
    jubileu_steps.start_hand(page, "copas")
    steps.press(page, "aces:none")
    for call in ("call:0:solo_sete", "call:1:passo", "call:2:passo", "call:3:passo"):
        steps.press(page, call)
    steps.press(page, "trump:espadas")
    jubileu_steps.enter_tricks(page, [9, 2, 1, 1])
    expect(page.locator(".preview-deltas")).to_be_visible()
    shot(page, "preview-long-names")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no name widens the page
    rows = page.locator(".preview-deltas li").evaluate_all(PREVIEW)
    assert len(rows) == len(SEATS)
    for row in rows:
        assert row["card"][0] <= row["who"][0] and row["who"][2] <= row["card"][2], row
        if row["net"] is not None:
            assert not _overlap(row["who"], row["net"]), row
            if abs(row["who"][1] - row["net"][1]) < 30:  # side by side: a visible gap between them
                assert row["net"][0] - row["who"][2] >= 4, row
