"""After the PostgreSQL server drops the app's connections (a restart, an upgrade, an idle
timeout), the next request is served: the pool pings a connection before handing it out and
replaces a dead one (referee/config.py). PostgreSQL only: SQLite has no server to lose."""

from __future__ import annotations

import pytest
from flask import Flask
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from referee.extensions import db
from tests.conftest import TEST_DATABASE_URL

pytestmark = pytest.mark.skipif(
    not TEST_DATABASE_URL.startswith("postgresql"), reason="PostgreSQL only (TEST_DATABASE_URL)"
)


#: Every other connection to the test database, as a server restart would drop them: the app's
#: pool holds several (a request may check out more than one).
DROP_THE_OTHERS = """
    SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
    WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'
"""


def test_the_first_request_after_the_server_dropped_the_connections_is_served(app: Flask) -> None:
    client = app.test_client()
    assert client.get("/league/seasons").status_code == 200
    with app.app_context():
        db.session.remove()  # every connection back in the pool, as after every request
    outside = create_engine(app.config["SQLALCHEMY_DATABASE_URI"], poolclass=NullPool)
    with outside.connect() as connection:
        assert connection.scalar(text(DROP_THE_OTHERS)) >= 1
    outside.dispose()
    assert client.get("/league/seasons").status_code == 200
    assert client.get("/league/seasons").status_code == 200
