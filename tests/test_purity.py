"""referee.rules is pure: importing it loads no web, database or form library."""

from __future__ import annotations

import json
import subprocess
import sys

FORBIDDEN = (
    "flask",
    "sqlalchemy",
    "flask_sqlalchemy",
    "wtforms",
    "flask_wtf",
    "qrcode",
    "flask_babel",
    "flask_migrate",
    "alembic",
    "werkzeug",
    "jinja2",
)


def test_rules_import_loads_no_framework() -> None:
    code = "import sys, json, referee.rules\nprint(json.dumps(sorted(sys.modules)))\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = json.loads(out)
    bad = [m for m in loaded if m.split(".")[0] in FORBIDDEN]
    assert not bad, f"referee.rules pulled in: {bad}"
