"""One Jubileu hand saved from the page and through the API: Python calls, SQL statements and
the repeated work per request, side by side. ``python -m tests.bench.run save_path``.

Counts, not times. BENCH_QUICK=1 runs it once without judging (a check that it still runs);
BENCH_SQL=1 prints the statements. The targets: the page save sends at most the API save's
statements plus what drawing the table page needs, and no request parses the house rules or
replays the auction twice.
"""

from __future__ import annotations

import os

from .save_path import api_save, count_save, dump, make_app, page_save, report


def main() -> None:
    app, tmp = make_app()
    with tmp:
        page = count_save(app, page_save)
        api = count_save(app, api_save)
        with app.app_context():
            from referee.extensions import db  # noqa: PLC0415

            db.engine.dispose()
    for line in report(page, api):
        print(line)
    if os.environ.get("BENCH_SQL"):
        print("  page save's statements:", dump(page))
        print("  API save's statements:", dump(api))
    if page.status >= 400 or api.status >= 400:
        raise SystemExit(f"a save failed: page {page.status}, API {api.status}")


if __name__ == "__main__":
    main()
