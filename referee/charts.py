"""Charts drawn on the server as inline SVG: no chart library, no script, nothing for the CSP to
allow, and the same picture on a phone without JavaScript.

Pure: standard library and markupsafe only (no Flask, no database), so the geometry is tested
alone. A chart is an accessible image (``role="img"`` named by its ``<title>``); the page that
shows one also lists the same figures as text for screen readers.

Colours come from the page: lines are drawn in ``currentColor`` inside groups of class
``positive`` (above the zero line) and ``negative`` (below it), so the theme's own green and red
apply in light and dark mode alike; axes and labels take the text colour.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

#: The drawing's own units. Phones scale the SVG to the card's width (about 316 px at 390 px),
#: so one unit is about one pixel there and the 13-unit labels stay readable.
WIDTH = 320
HEIGHT = 200
FONT = 13
CHAR = 0.62  # average width of a digit or letter, in ems: enough room for the value labels
TICKS = 5
DOTS_UP_TO = 40  # beyond this many points the dots would only blur the line


def nice_ticks(low: float, high: float, count: int = TICKS) -> list[int]:
    """About ``count`` round whole-number ticks (steps of 1, 2 or 5 times a power of ten) that
    cover ``low``..``high`` and always include zero.

    >>> nice_ticks(-7, 23)
    [-10, 0, 10, 20, 30]
    >>> nice_ticks(0, 0)
    [-1, 0, 1]
    """
    low, high = min(low, 0.0), max(high, 0.0)
    if low == high:
        return [-1, 0, 1]
    raw = (high - low) / max(count - 1, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(int(m * power) for m in (1, 2, 5, 10) if m * power >= raw) if power >= 1 else 1
    step = max(step, 1)
    first = math.floor(low / step) * step
    last = math.ceil(high / step) * step
    return list(range(first, last + step, step))


@dataclass(frozen=True)
class Frame:
    """Where values land: ``count`` points spread evenly from ``left`` to ``right``, and values
    from ``low`` (at ``bottom``) to ``high`` (at ``top``). SVG's y grows downwards."""

    left: float
    right: float
    top: float
    bottom: float
    low: float
    high: float
    count: int

    def x(self, index: int) -> float:
        """A lone point sits in the middle; otherwise the first at the left, the last at the right."""
        if self.count <= 1:
            return (self.left + self.right) / 2
        return self.left + (self.right - self.left) * index / (self.count - 1)

    def y(self, value: float) -> float:
        return self.bottom - (self.bottom - self.top) * (value - self.low) / (self.high - self.low)


def frame(
    values: Sequence[float], ticks: Sequence[int], *, label_chars: int, width: int = WIDTH, height: int = HEIGHT
) -> Frame:
    """The plot area left once the value labels (``label_chars`` wide) and the date labels
    below have their room."""
    left = 6 + label_chars * FONT * CHAR
    return Frame(
        left=round(left, 1),
        right=width - 8,
        top=FONT,
        bottom=height - FONT * 2 - 4,
        low=ticks[0],
        high=ticks[-1],
        count=len(values),
    )


def _n(value: float) -> str:
    """A coordinate, short: 12.0 -> "12", 12.345 -> "12.3"."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _label_indexes(count: int) -> list[int]:
    """Which points get a label under the axis: the first, the last, and the middle one when
    there is room (three dates fit across a phone)."""
    if count <= 2:
        return list(range(count))
    return [0, (count - 1) // 2, count - 1] if count >= 5 else [0, count - 1]


def line_chart(
    points: Sequence[tuple[str, int]],
    *,
    title: str,
    chart_id: str,
    fmt: Callable[[int], str] = str,
    description: str = "",
    width: int = WIDTH,
    height: int = HEIGHT,
) -> Markup:
    """A line through ``points`` (label under the axis, value), in order, with a few labelled
    value ticks, a zero line, and the first, middle and last labels under the axis.

    ``chart_id`` makes the ids inside unique on the page (the title, the clip paths). ``fmt``
    writes a value for the axis (the page's number format). Answers an empty string when there
    is nothing to draw: the page says so in words instead."""
    if not points:
        return Markup("")
    values = [value for _label, value in points]
    ticks = nice_ticks(min(values), max(values))
    tick_labels = [fmt(t) for t in ticks]
    box = frame(values, ticks, label_chars=max(len(t) for t in tick_labels), width=width, height=height)
    ident = escape(chart_id)
    zero = box.y(0)
    named_by = f"{ident}-t {ident}-d" if description else f"{ident}-t"
    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" aria-labelledby="{named_by}"'
        f' font-size="{FONT}" font-family="inherit">',
        f'<title id="{ident}-t">{escape(title)}</title>',
    ]
    if description:
        parts.append(f'<desc id="{ident}-d">{escape(description)}</desc>')
    parts.append(
        "<defs>"
        f'<clipPath id="{ident}-up"><rect x="0" y="0" width="{width}" height="{_n(zero)}"/></clipPath>'
        f'<clipPath id="{ident}-down"><rect x="0" y="{_n(zero)}" width="{width}" height="{_n(height - zero)}"/></clipPath>'
        "</defs>"
    )
    # Value ticks: a faint line across and the value at the left.
    parts.append('<g fill="currentColor" stroke="currentColor">')
    for tick, label in zip(ticks, tick_labels):
        y = _n(box.y(tick))
        if tick == 0:
            parts.append(
                f'<line x1="{_n(box.left)}" x2="{_n(box.right)}" y1="{y}" y2="{y}" stroke-width="1.5" opacity=".8"/>'
            )
        else:
            parts.append(
                f'<line x1="{_n(box.left)}" x2="{_n(box.right)}" y1="{y}" y2="{y}" stroke-width="1" opacity=".2"/>'
            )
        parts.append(
            f'<text x="{_n(box.left - 5)}" y="{y}" dy=".35em" text-anchor="end" stroke="none">{escape(label)}</text>'
        )
    # Labels under the axis.
    base = _n(box.bottom + FONT + 6)
    for index in _label_indexes(len(points)):
        anchor = (
            "middle"
            if len(points) == 1
            else ("start" if index == 0 else "end" if index == len(points) - 1 else "middle")
        )
        parts.append(
            f'<text x="{_n(box.x(index))}" y="{base}" text-anchor="{anchor}" stroke="none">{escape(points[index][0])}</text>'
        )
    parts.append("</g>")
    # The line, twice: green where it is above zero, red below (the clip paths split it).
    coordinates = " ".join(f"{_n(box.x(i))},{_n(box.y(v))}" for i, v in enumerate(values))
    dots = len(values) <= DOTS_UP_TO
    for side, css in (("up", "positive"), ("down", "negative")):
        parts.append(f'<g class="{css}" clip-path="url(#{ident}-{side})" stroke="currentColor" fill="currentColor">')
        if len(values) > 1:
            parts.append(
                f'<polyline points="{coordinates}" fill="none" stroke-width="2.5" stroke-linejoin="round" stroke-linecap="round"/>'
            )
        if dots or len(values) == 1:
            parts.extend(
                f'<circle cx="{_n(box.x(i))}" cy="{_n(box.y(v))}" r="3.5" stroke="none"/>' for i, v in enumerate(values)
            )
        parts.append("</g>")
    parts.append("</svg>")
    return Markup("".join(parts))  # noqa: S704 - every text and id above is escaped
