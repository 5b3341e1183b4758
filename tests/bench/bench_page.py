"""Page weight of the table page /t/<id> (scorer's view, a few hands recorded) and of everything
it loads: stylesheets, scripts (swap.js, app.js), icons and images named in its HTML; then what each
page a phone opens or polls at a table costs at 10 hands and at 20,000, side by side.

`.venv/bin/python -m tests.bench.bench_page`. Sizes are raw bytes and gzip (compresslevel 6,
computed here on the raw bytes, whatever the server sends). Prints; never asserts.
BENCH_QUICK=1 runs the cost part on small tables with few requests (it checks the benchmark runs,
its figures mean nothing).
"""

from __future__ import annotations

import gzip
import http.cookiejar
import os
import re
import shutil
import statistics
import tempfile
import time
import urllib.parse
import urllib.request
from html.parser import HTMLParser
from pathlib import Path

from ._common import figure, machine, post_json, referee_server
from .hands import PLAYERS, record
from .long_table import long_table

HANDS = 5
TARGET_KB = 60.0


class Resources(HTMLParser):
    """The URLs a browser fetches for a page: link href (stylesheet, icon, preload, manifest),
    script src, img src (and srcset's first entry)."""

    FETCHED_RELS = {"stylesheet", "icon", "shortcut", "apple-touch-icon", "preload", "modulepreload", "manifest"}

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[tuple[str, str]] = []  # (kind, url)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "link" and a.get("href") and set(a.get("rel", "").lower().split()) & self.FETCHED_RELS:
            self.urls.append((f"link {a['rel']}", a["href"]))
        elif tag == "script" and a.get("src"):
            self.urls.append(("script", a["src"]))
        elif tag in ("img", "source") and (a.get("src") or a.get("srcset")):
            self.urls.append((tag, a.get("src") or a["srcset"].split(",")[0].split()[0]))


def gz(data: bytes) -> int:
    return len(gzip.compress(data, compresslevel=6))


QUICK = os.environ.get("BENCH_QUICK") == "1"
#: The table sizes compared, and the requests timed per page and size (the median is printed).
SIZES = (10, 300) if QUICK else (10, 20_000)
REQUESTS = 3 if QUICK else 30
#: The pages a phone opens or polls at a table: (name, path, request headers).
TABLE_PAGES = (
    ("table page /t/<id>", "/t/{id}", {}),
    ("live redraw of <main>", "/t/{id}", {"X-Swap": "true", "X-Swap-Main": "true"}),
    ("live poll /t/<id>/version", "/t/{id}/version", {}),
    ("history, first page", "/t/{id}/history", {}),
    ("watch page /w/<id>", "/w/{id}", {}),
    ("shared screen /tv/<id>", "/tv/{id}", {}),
    ("API table JSON (lists every hand)", "/api/v1/tables/{id}", {}),
)


def flat_cost() -> None:
    """Each table page's time (median of REQUESTS, in-process, no network) at each of SIZES,
    with the bytes sent and the ratio large/small: a page that reads only what it shows stays
    near 1 (the API's table JSON lists every hand, so it grows with them by design)."""
    from referee import create_app  # noqa: PLC0415 (imported only for this part)

    workdir = Path(tempfile.mkdtemp(prefix="referee-bench-flat-"))
    try:
        app = create_app(
            {
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{workdir / 'bench.db'}",
                "SECRET_KEY": "bench",
                "WTF_CSRF_ENABLED": False,
                "INSTANCE_PATH": str(workdir / "instance"),
            }
        )
        started = time.perf_counter()
        tables = {}
        for size in SIZES:
            holder: dict[str, str] = {}
            tables[size] = (long_table(app, size, holder), holder["token"])
        print(
            f"  tables of {' and '.join(f'{s:,}' for s in SIZES)} hands built in {time.perf_counter() - started:.1f} s"
        )
        phones = {}
        for size, (table_id, token) in tables.items():
            phone = app.test_client()
            phone.post(f"/t/{table_id}/scorer", data={"token": token})  # the scorer's view
            phones[size] = phone
        small, large = SIZES
        print(f"  {'page':<36} {f'{small:,} hands':>14} {f'{large:,} hands':>16} {'ratio':>7}   bytes sent")
        for name, path, headers in TABLE_PAGES:
            times: dict[int, float] = {}
            sizes: dict[int, int] = {}
            for size, (table_id, _token) in tables.items():
                times[size], sizes[size] = _median_time(phones[size], path.format(id=table_id), headers)
            _print_row(name, times, sizes, small, large)
            if path.endswith("/history"):
                _history_both_full(tables, phones, small, large)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _history_both_full(tables: dict[int, tuple[str, str]], phones: dict[int, object], small: int, large: int) -> None:
    """The history's first page again with as many places a page as the small table has, so both
    pages are full and send the same bytes: what is left of the ratio is what the page reads."""
    from referee.views import tables as tables_view  # noqa: PLC0415 (the app is built by now)

    kept = tables_view.HISTORY_PAGE
    tables_view.HISTORY_PAGE = small
    try:
        times: dict[int, float] = {}
        sizes: dict[int, int] = {}
        for size, (table_id, _token) in tables.items():
            times[size], sizes[size] = _median_time(phones[size], f"/t/{table_id}/history", {})
    finally:
        tables_view.HISTORY_PAGE = kept
    _print_row(f"history, {small} places a page", times, sizes, small, large)


def _print_row(name: str, times: dict[int, float], sizes: dict[int, int], small: int, large: int) -> None:
    print(
        f"  {name:<36} {times[small]:>11.2f} ms {times[large]:>13.2f} ms {times[large] / times[small]:>6.1f}x"
        f"   {sizes[small]:,} / {sizes[large]:,}",
        flush=True,
    )


def _median_time(phone: object, path: str, headers: dict[str, str]) -> tuple[float, int]:
    """The median time of REQUESTS GETs of ``path`` (after one to warm), in ms, and the body's size."""
    get = phone.get  # type: ignore[attr-defined]
    body = get(path, headers=headers)
    if body.status_code != 200:
        raise RuntimeError(f"GET {path} answered {body.status_code}")
    spent = []
    for _ in range(REQUESTS):
        started = time.perf_counter()
        get(path, headers=headers)
        spent.append((time.perf_counter() - started) * 1000)
    return statistics.median(spent), len(body.get_data())


def main() -> None:
    machine()
    page_weight()
    flat_cost()


def page_weight() -> None:
    workdir = Path(tempfile.mkdtemp(prefix="referee-bench-page-"))
    try:
        with referee_server(workdir) as server:
            status, table = post_json(
                server.base, "/api/v1/tables", {"game": "jubileu", "players": list(PLAYERS), "name": "Sexta no clube"}
            )
            if status != 201:
                raise RuntimeError(f"POST /api/v1/tables answered {status}: {table}")
            for k in range(HANDS):
                status, answer = post_json(
                    server.base,
                    f"/api/v1/tables/{table['id']}/hands",
                    record(PLAYERS, k),
                    {"Authorization": f"Bearer {table['token']}"},
                )
                if status != 201:
                    raise RuntimeError(f"POST hand {k + 1} answered {status}: {answer}")
            jar = http.cookiejar.CookieJar()
            opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
            opener.addheaders = [("Accept-Encoding", "identity")]  # raw bytes; gzip computed here
            page_url = f"{server.base}/t/{table['id']}"
            html = opener.open(page_url, timeout=10).read()
            # become the scorer on this "phone" (the claim form), so the page is the scorer's view
            match = re.search(rb'name="csrf_token" value="([^"]+)"', html) or re.search(
                rb'name="csrf-token" content="([^"]+)"', html
            )
            view = "visitor"
            if match:
                form = urllib.parse.urlencode({"csrf_token": match.group(1).decode(), "token": table["token"]}).encode()
                try:
                    opener.open(
                        urllib.request.Request(f"{page_url}/scorer", data=form, headers={"Referer": page_url}),
                        timeout=10,
                    ).read()
                    html = opener.open(page_url, timeout=10).read()
                    view = "visitor (claim refused)" if b'class="claim"' in html else "scorer"
                except urllib.error.HTTPError as exc:
                    print(f"  (claiming the table as scorer failed: HTTP {exc.code}; measuring the visitor's view)")
            parser = Resources()
            parser.feed(html.decode("utf-8", errors="replace"))

            rows = [(f"/t/<id> (HTML, {view} view, {HANDS} hands)", len(html), gz(html))]
            urls = [page_url]
            seen: set[str] = set()
            for kind, url in parser.urls:
                absolute = urllib.parse.urljoin(page_url, url)
                if absolute in seen or not absolute.startswith(server.base):  # once each; loopback only
                    continue
                seen.add(absolute)
                try:
                    body = opener.open(absolute, timeout=10).read()
                except urllib.error.HTTPError as exc:
                    print(f"  MISSING {kind} {url}: HTTP {exc.code}")
                    continue
                rows.append((f"{urllib.parse.urlsplit(absolute).path} ({kind})", len(body), gz(body)))
                urls.append(absolute)
            # what the server itself sends to a browser that accepts gzip (for information)
            served = {}
            for (name, _raw, _gz), url in zip(rows, urls):
                gzip_request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"})
                with opener.open(gzip_request, timeout=10) as response:
                    served[name] = (len(response.read()), response.headers.get("Content-Encoding") or "none")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    print(f"  {'resource':<58} {'raw B':>9} {'gzip6 B':>9}   served with Accept-Encoding: gzip")
    for name, raw, zipped in rows:
        wire, encoding = served.get(name, (0, "?"))
        print(f"  {name:<58} {raw:>9,} {zipped:>9,}   {wire:>7,} B ({encoding})")
    total_raw = sum(r for _, r, _ in rows)
    total_gz = sum(z for _, _, z in rows)
    total_wire = sum(w for w, _ in served.values())
    print(f"  {'total (' + str(len(rows)) + ' requests)':<58} {total_raw:>9,} {total_gz:>9,}   {total_wire:>7,} B")
    figure(
        "page weight /t/<id> + resources, gzip",
        total_gz / 1024,
        "KB",
        f"< {TARGET_KB:.0f} KB",
        total_gz / 1024 < TARGET_KB,
    )


if __name__ == "__main__":
    main()
