"""Flask extension instances, bound to the app in create_app(). `db` lives in referee.db."""

from flask_babel import Babel
from flask_migrate import Migrate
from flask_wtf.csrf import CSRFProtect

from referee.db import db

babel = Babel()
csrf = CSRFProtect()
migrate = Migrate()

__all__ = ["babel", "csrf", "db", "migrate"]
