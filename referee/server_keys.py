"""The server's own secrets in its backups: the secret key and the club's code.

The secret key signs every phone's session (the owner's and scorers' rights it holds, the
club manager's fingerprint of the club code) and derives the tokens behind the championship
cards' QR codes; the club's code is what that fingerprint is checked against. A database
restored under another key is whole, yet no phone has its rights back (an owner's token is
never shown again) and every card, printed before or after, is refused. So the backups an
admin takes *on the server* (``flask --app referee backup`` and ``backup-daily``) carry both,
in the document's ``server`` section, and ``restore`` puts them in force (:func:`plan`,
:func:`put`).

Why in the document rather than a file beside it: the document is already as secret as the key
(it holds the owners' token hashes and the members' Pix keys, and is written mode 0600), and one
file cannot be copied away without its key, which a second file could.

The backup a manager downloads on a phone never carries them: anybody who knows the club's code
could then sign a session cookie with any table's owner rights, or make the cards' tokens. A
restore from such a file (or from a backup made before this section existed) brings the data
back, and says that the old phones' sessions and the printed cards do not come back with it.

Where a restore may put a key: in the instance folder's file (``instance/secret_key``,
``instance/club_code``) when that is where the server reads it from. Replacing a file this very
process has just made is harmless (nothing was signed with it); replacing one that was there
before would sign out every phone that came in since, so it takes ``--replace-keys``. A key set
elsewhere (``SECRET_KEY_FILE``, the environment, ``instance/config.py``) is never written: a
restore that finds a different one there refuses before anything is stored, and says where the
backup's must go.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from flask import current_app

from referee import config
from referee.rules.errors import InvalidInput
from referee.rules.text import N_, Text

#: The document's section, written only by the server's own backups.
FIELD = "server"
#: Each carried setting: its name in the document (and its file in the instance folder), the
#: config key, and what a person calls it.
SETTINGS = (("secret_key", "SECRET_KEY", "secret key"), ("club_code", "CLUB_CODE", "club code"))
VALUE_MAX = 512


class Refused(Exception):
    """A sentence for the admin: why the backup's keys cannot be put in force, and what to do."""


@dataclass(frozen=True)
class Step:
    """One file of the instance folder to (re)write with the backup's value."""

    name: str
    key: str
    value: str


def carried() -> dict[str, str]:
    """The section a server's own backup carries: the secret key and club code in force."""
    return {name: str(current_app.config[key]) for name, key, _what in SETTINGS}


def read(document: Mapping[str, object]) -> dict[str, str] | None:
    """The backup's keys, checked; None when it carries none (a phone's download)."""
    section = document.get(FIELD)
    if section is None:
        return None
    if not isinstance(section, Mapping):
        raise InvalidInput(Text(N_("The server’s keys must be a JSON object.")), field=FIELD)
    keys = {}
    for name, _key, _what in SETTINGS:
        value = section.get(name)
        if (
            not isinstance(value, str)
            or not value
            or len(value) > VALUE_MAX
            or value != value.strip()
            or not value.isascii()
            or not value.isprintable()
        ):
            raise InvalidInput(
                Text(N_("This key must be the text the server keeps, on one line.")), field=f"{FIELD}.{name}"
            )
        keys[name] = value
    return keys


def plan(keys: Mapping[str, str], *, replace: bool, other_clubs: int = 0) -> list[Step]:
    """What putting ``keys`` in force takes: the instance files to write. Refuses (before
    anything is written or restored) where a different key is in force that a restore may not
    replace (module docstring). The secret key is the whole server's: where it also signs the
    phones of ``other_clubs`` clubs (the first club's backup carries it), replacing it signs
    them all out and their tables' owners lose them for good, so that is refused too unless
    the caller counted none, and where the key is set outside the instance folder the sentence
    says what putting the backup's there costs. Needs an app context."""
    sources = current_app.config.get(config.SOURCES, {})
    steps = []
    for name, key, what in SETTINGS:
        if str(current_app.config[key]) == keys[name]:
            continue
        source = sources.get(key, config.APP_CONFIG)
        others = other_clubs if key == "SECRET_KEY" else 0
        clubs = "1 other club" if others == 1 else f"{others} other clubs"
        if source == config.INSTANCE_FILE and replace and others:
            raise Refused(
                f"This server also serves {clubs}, whose phones are signed in with its secret key: the backup's"
                " would sign every one of them out, and the owners of their tables could no longer manage them."
                " To do it anyway, run restore again with --replace-keys --sign-out-every-club."
            )
        if source == config.MADE_NOW or (source == config.INSTANCE_FILE and replace):
            steps.append(Step(name, key, keys[name]))
        elif source == config.INSTANCE_FILE:
            raise Refused(
                f"This server already has its own {what} in {_instance() / name}, and the backup's is another:"
                f" phones that came in on this server would lose their access. Run restore again with"
                f" --replace-keys to put the backup's {what} in its place."
            )
        else:
            warning = (
                f" Doing so signs out every phone of the {clubs.removeprefix('1 ')} this server also serves, and"
                " the owners of their tables could no longer manage them."
                if others
                else ""
            )
            raise Refused(
                f"The backup's {what} is not the one this server takes from {source}. Put the backup's"
                f" there (restore --print-{name.replace('_', '-')} FILE prints it), then run restore again.{warning}"
            )
    return steps


def put(steps: list[Step]) -> list[Path]:
    """Write the planned files (mode 0600, each in one step); answers them. The server reads
    them when it starts: a running one must be restarted."""
    instance = _instance()
    for step in steps:
        config.write_instance_secret(instance, step.name, step.value)
        current_app.config[step.key] = step.value
    return [instance / step.name for step in steps]


def _instance() -> Path:
    return Path(current_app.instance_path)
