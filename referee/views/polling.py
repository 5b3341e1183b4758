"""What a page following a table answers its poll with: the table's version and an ETag, so an
unchanged table costs a ``304 Not Modified`` and about a hundred bytes. The table's own live
page and a championship round's table page both answer with it (see :mod:`referee.views.live`).
"""

from __future__ import annotations

from flask import jsonify, request
from flask.typing import ResponseReturnValue

from referee.models import Table


def table_version(table: Table) -> ResponseReturnValue:
    """The answer of a page following ``table``: its version, 304 when the poller has it."""
    etag = f"v{table.version}-{1 if table.finished_at else 0}"
    if request.if_none_match.contains(etag):
        response = jsonify()
        response.status_code = 304
        response.set_data(b"")
    else:
        response = jsonify({"version": table.version})
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"
    return response
