"""A tap in a hand answers with only what changes: the server's half of the swap protocol.

A hand's links and forms are followed by the page's script (static/js/swap.js), which puts the
answer's ``<main>`` in place of the page's: the header, the styles and the scripts are already
on the phone. On a weak connection every byte of a tap's answer is waited for, and a cheap phone
parses every one of them. The protocol is our own, a few headers:

- the client sends ``X-Swap: true`` on every request the script makes (swap.js, and the outbox
  in static/js/app.js): a header another site's page cannot make a browser send, so such an
  answer may be compressed (:mod:`referee.compress`);
- it adds ``X-Swap-Main: true`` when it will put the answer's ``<main>`` in place (a link or a
  form inside an element marked ``data-swap-main``); the server then answers only the page's
  ``<title>`` and ``<main>`` (templates/base.html reads ``main_only``), whichever view answers,
  an error page too. A save sent by the outbox (``X-Swap`` with ``X-Referee-Outbox``) is
  answered the same way;
- the target is chosen by the client, never by the server: ``<main>``, or for a link or form
  marked ``data-swap="#id"`` the element with that id, fetched from ``data-swap-url``, an
  address that answers that one element (the Derby's race, ``?partial=race``); a form marked
  ``data-live="#id"`` sends its fields to ``data-live-url`` as they are typed and puts the
  answer inside that element (Samba's live score, ``?partial=live``);
- the server may answer ``X-Swap-Push-Url``: the address the bar shows after the swap (a saved
  hand answers the table page itself, with the table's address), or ``X-Swap-Redirect``: the
  step left that element, so the client fetches that address's ``<main>`` instead.

Every answer also says ``Vary: X-Swap, X-Swap-Main``. Without JavaScript nothing changes:
every answer is the whole page.
"""

from __future__ import annotations

from flask import Flask, Response, has_request_context, request


def from_script() -> bool:
    """Whether the page's own script asked (static/js/swap.js, the outbox in app.js): it says
    ``X-Swap``, a header another site's page cannot make a browser send."""
    return request.headers.get("X-Swap") == "true"


def wants_main() -> bool:
    """Whether this request swaps ``<main>`` in: a link or form the script followed, or a save
    sent by the outbox where the script runs. The script's requests for a part of a page (Samba's
    live score, the Derby's race) name that part in their address instead."""
    if not from_script():
        return False
    headers = request.headers
    return headers.get("X-Swap-Main") == "true" or bool(headers.get("X-Referee-Outbox"))


def init_app(app: Flask) -> None:
    @app.context_processor
    def main_only() -> dict[str, bool]:
        return {"main_only": has_request_context() and wants_main()}

    @app.after_request
    def vary(response: Response) -> Response:
        # The same address answers a whole page or its <main>: a cache must tell them apart.
        if response.mimetype == "text/html":
            response.vary.update(("X-Swap", "X-Swap-Main"))
        return response


__all__ = ["from_script", "init_app", "wants_main"]
