"""Referee: a referee and scorekeeper for Brazilian card games played with real cards.

Nothing here imports Flask at module level: `import referee.rules` must stay pure
(tests/test_purity.py), and importing a subpackage runs this file first.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

#: This release: the date it was made (``YYYY.M.D``; a second release that day adds ``.1``). The
#: release step in docs/club-server.md bumps it, so pip takes each new wheel as an upgrade.
__version__ = "2026.11.29"

PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent
MIGRATIONS = PACKAGE / "migrations"
# A built package carries its own copy of templates/ and static/ (setup.py); a checkout has them
# at the top of the repository, next to instance/.
INSTALLED = (PACKAGE / "templates").is_dir()
WEB_ROOT = PACKAGE if INSTALLED else ROOT


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the app. Its database schema is created (by running the migrations) if missing.

    `config` overrides everything else; it may carry "INSTANCE_PATH" to use another
    instance folder (tests). Otherwise the data folder is REFEREE_HOME, or the checkout's
    instance/, or for an installed wheel a folder outside the venv (referee.config.data_folder).
    """
    from flask import Flask

    from referee import config as config_module

    config = dict(config or {})
    instance = config.pop("INSTANCE_PATH", None) or config_module.data_folder(installed=INSTALLED, checkout=ROOT)
    app = Flask(
        __name__,
        instance_path=str(instance),
        instance_relative_config=True,
        template_folder=str(WEB_ROOT / "templates"),
        static_folder=str(WEB_ROOT / "static"),
    )
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    config_module.load(app, config)

    from referee import club_scope, clubs, compress, errorpages, i18n, inputs, proxy, security
    from referee.db import create_private_sqlite_file
    from referee.extensions import babel, csrf, db, migrate

    create_private_sqlite_file(app.config["SQLALCHEMY_DATABASE_URI"])  # 0600, before SQLite makes it 0644
    db.init_app(app)
    club_scope.init_app()  # every statement limited to the club served
    migrate.init_app(app, db, directory=str(MIGRATIONS), render_as_batch=True)
    babel.init_app(app, locale_selector=i18n.select_locale)
    csrf.init_app(app)
    i18n.init_app(app)
    security.init_app(app)
    clubs.init_app(app)  # the club's prefix read off the path, inside the Host check
    errorpages.init_app(app)  # its Host check sits inside the proxy fix
    proxy.init_app(app)
    from referee.views import boost

    compress.init_app(app, asked_by_script=boost.from_script)
    inputs.init_app(app)  # before the blueprints: their <int:...> routes bind the converter
    from referee import cli

    cli.init_app(app)  # noqa: E702 (one line: backup, restore, export, import)

    from referee import api
    from referee.views import games, hands, home, live, melds, new_club, players, pwa, sharing, tables

    boost.init_app(app)

    app.register_blueprint(home.bp)
    app.register_blueprint(new_club.bp)
    app.register_blueprint(tables.bp)
    app.register_blueprint(hands.bp)
    app.register_blueprint(melds.bp)
    for pages in games.PAGES.values():  # a game's own pages besides recording a hand (Koziri's helpers)
        if pages.blueprint is not None:
            app.register_blueprint(pages.blueprint)
    app.register_blueprint(pwa.bp)
    app.register_blueprint(sharing.bp)
    app.register_blueprint(live.bp)
    app.register_blueprint(players.bp)
    app.register_blueprint(api.bp, url_prefix="/api/v1")
    from referee.operator import cli as operator_cli
    from referee.ratings import cli as ratings_cli

    app.cli.add_command(ratings_cli)  # noqa: E702 (one line: see ratings)
    app.cli.add_command(operator_cli)
    from referee.views import league as league_views
    from referee.views import night

    app.register_blueprint(night.bp)
    app.register_blueprint(league_views.bp)
    from referee.views import transfers, trust

    app.register_blueprint(transfers.bp)
    app.register_blueprint(trust.bp)
    from referee.views import (
        championship,
        championship_cards,
        championship_entries,
        championship_manage,
        championship_money,
        championship_paper,
        championship_prizes,
        championship_settings,
    )

    for part in (
        championship,  # the public pages
        championship_manage,  # the organiser's page and the round's draw
        championship_settings,
        championship_entries,
        championship_money,
        championship_paper,
        championship_cards,
        championship_prizes,
    ):
        app.register_blueprint(part.bp)

    @app.url_defaults
    def static_version(endpoint: str, values: dict[str, Any]) -> None:
        # Cache-busting: static URLs carry the file's mtime, so they can be cached for long.
        if endpoint == "static" and "filename" in values and "v" not in values:
            try:
                values["v"] = int((Path(app.static_folder or "") / values["filename"]).stat().st_mtime)
            except OSError:
                pass

    app.jinja_env.globals["has_endpoint"] = lambda name: name in app.view_functions
    app.jinja_env.globals["at_root"] = clubs.at_root
    app.jinja_env.globals["here"] = clubs.here
    app.jinja_env.globals["club_name"] = clubs.served_name
    app.jinja_env.globals["offers_new_clubs"] = clubs.offers_new_clubs
    app.jinja_env.globals["round_kind"] = lambda game: games.PAGES[game].round_kind

    from referee import schema

    with app.app_context():
        schema.ensure(MIGRATIONS)

    return app
