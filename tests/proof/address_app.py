"""The benchmarks' factory (tests/bench/wsgi.py) plus one route that tells what the app takes for
the client: its address (the rate limits count by it) and the scheme. The proof tests serve it
through the launcher `make run` uses, to see what reaches the app behind the proxy."""

from __future__ import annotations

from flask import Flask, jsonify, request

from tests.bench import wsgi


def referee() -> Flask:
    app = wsgi.referee()

    @app.get("/_client")
    def client():  # type: ignore[no-untyped-def]
        return jsonify(address=request.remote_addr, scheme=request.scheme, host=request.host)

    return app
