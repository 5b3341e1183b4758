"""WTForms for the pages. A form only gathers input: the rules engine (through the ledger)
judges it, and its sentence is shown next to the field it names.

The table form is built per game from the game's option specs, so a new house rule appears on
the page the moment the engine declares it.
"""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, Field, RadioField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import Length, Optional

from referee.i18n import render_text
from referee.rules.game import Game
from referee.rules.options import OptionSpec

OPTION_PREFIX = "opt_"


class TableForm(FlaskForm):
    name = StringField(_l("Name of the table (optional)"), validators=[Optional(), Length(max=120)])
    # default: the last seat of the game (table_form); a seat that is not a named player is refused
    # with a sentence by the new-table checks (referee.views.new_table), not by WTForms.
    dealer = RadioField(_l("Who deals first"), validate_choice=False)


def table_form(rules: Game[Any, Any], formdata: Any = None) -> TableForm:
    """A table form for ``rules``: one name field per seat and one field per house rule."""

    class Form(TableForm):
        pass

    for i in range(rules.max_players):
        setattr(Form, f"player_{i}", StringField(_l("Player %(n)s", n=i + 1), validators=[Length(max=40)]))
    add_options(Form, rules)
    form = Form(formdata=formdata)
    form.dealer.choices = [SelectChoice(str(i), str(i + 1)) for i in range(rules.max_players)]
    if rules.min_players != rules.max_players:
        form.dealer.choices.insert(0, SelectChoice("", ""))  # the last player named
    if form.dealer.data is None:
        # Games with optional seats (a fifth at Quatrilho, up to six at Samba): preselecting the
        # last seat would name an empty one; "the last player named" is the default instead.
        form.dealer.data = str(rules.max_players - 1) if rules.min_players == rules.max_players else ""
    return form


def add_options(form_class: type[FlaskForm], rules: Game[Any, Any], *, leave_out: tuple[str, ...] = ()) -> None:
    """One field per house rule of ``rules`` on ``form_class`` (named OPTION_PREFIX + the
    option), but those in ``leave_out``: what a table's form and a championship's share."""
    for spec in rules.option_specs:
        if spec.name not in leave_out:
            setattr(form_class, OPTION_PREFIX + spec.name, option_field(spec))


def options_form(rules: Game[Any, Any], formdata: Any = None, *, leave_out: tuple[str, ...] = ()) -> FlaskForm:
    """A form of ``rules``' house rules alone (a championship's tables)."""

    class Form(FlaskForm):
        pass

    add_options(Form, rules, leave_out=leave_out)
    return Form(formdata=formdata)


def option_field(spec: OptionSpec) -> Field:
    label = render_text(spec.label)
    description = render_text(spec.help)
    if spec.kind == "bool":
        return BooleanField(label, default=bool(spec.default), description=description)
    if spec.kind == "choice":
        return RadioField(
            label,
            choices=[SelectChoice(c.value, render_text(c.label)) for c in spec.choices],
            default=spec.default,
            description=description,
        )
    return StringField(label, default=str(spec.default), description=description)


def option_values(form: FlaskForm, rules: Game[Any, Any]) -> dict[str, object]:
    """The posted options in API shape (the engine validates them)."""
    values: dict[str, object] = {}
    for spec in rules.option_specs:
        field = getattr(form, OPTION_PREFIX + spec.name, None)
        if field is None:  # a form that leaves a house rule out (a championship's stock)
            continue
        data = field.data
        if spec.kind == "int":
            text = (data or "").strip() or "0"
            # Plain ASCII digits only ("²".isdigit() is true); anything else goes to the engine
            # as text, which refuses it with its sentence.
            values[spec.name] = int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else text
        elif spec.kind == "bool":
            values[spec.name] = bool(data)
        else:
            values[spec.name] = data if data is not None else spec.default
    return values


def field_for(error_field: str | None) -> str | None:
    """Map an engine error's field ("players[2]", "options.x") to the form field's name."""
    if not error_field:
        return None
    if error_field.startswith("players[") and error_field.endswith("]"):
        return f"player_{error_field[8:-1]}"
    if error_field.startswith("options."):
        return OPTION_PREFIX + error_field[8:]
    return {"dealer": "dealer", "name": "name"}.get(error_field)
