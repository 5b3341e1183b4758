"""A tap in a hand answers with only what changes.

A hand's links and forms are followed by the page's script (static/js/swap.js), which puts the
answer's ``<main>`` in place of the page's: the header, the styles and the scripts are already
on the phone. Such a request says ``HX-Boosted`` and gets only the page's ``<title>`` and
``<main>`` (templates/base.html reads ``main_only``), whichever view answers, an error page too.
On a weak connection every byte of a tap's answer is waited for, and a cheap phone parses every
one of them. The table page answered to a save sent by the outbox (static/js/app.js) is swapped
in the same way.

Without JavaScript nothing changes: every answer is the whole page.
"""

from __future__ import annotations

from flask import Flask, Response, has_request_context, request


def from_script() -> bool:
    """Whether the page's own script asked (static/js/swap.js, the outbox in app.js): it says
    ``HX-Request``, a header another site's page cannot make a browser send."""
    return request.headers.get("HX-Request") == "true"


def wants_main() -> bool:
    """Whether this request swaps ``<main>`` in: a link or form the script followed, or a save
    sent by the outbox where the script runs. The script's requests for a part of a page (Samba's
    live score, the Derby's race) name that part in their address instead."""
    if not from_script():
        return False
    headers = request.headers
    return headers.get("HX-Boosted") == "true" or bool(headers.get("X-Referee-Outbox"))


def init_app(app: Flask) -> None:
    @app.context_processor
    def main_only() -> dict[str, bool]:
        return {"main_only": has_request_context() and wants_main()}

    @app.after_request
    def vary(response: Response) -> Response:
        # The same address answers a whole page or its <main>: a cache must tell them apart.
        if response.mimetype == "text/html":
            response.vary.update(("HX-Request", "HX-Boosted"))
        return response


__all__ = ["from_script", "init_app", "wants_main"]
