"""gunicorn entry point for the benchmarks: `gunicorn 'tests.bench.wsgi:referee()'`.

The production factory, with the instance folder taken from BENCH_INSTANCE_PATH (a temp dir) so
a bench never writes into ./instance. The database comes from DATABASE_URL and the secret key
from SECRET_KEY, both read by referee/config.py as in production.
"""

from __future__ import annotations

import os

from flask import Flask

from referee import create_app


def referee() -> Flask:
    return create_app({"INSTANCE_PATH": os.environ["BENCH_INSTANCE_PATH"]})
