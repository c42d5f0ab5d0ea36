"""A cumulative-score chart drawn server-side as SVG.

Readable without colour: every player has a marker of its own shape, the
line ends with the player's name and total (a direct label), and the page
shows the same numbers as a table.  Text is escaped; the SVG is inline.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

# Okabe–Ito colours (distinguishable with colour-vision deficiencies), paired with distinct shapes.
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#7a5c00")
SHAPES = ("circle", "square", "triangle", "diamond", "cross")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2")

WIDTH, HEIGHT = 640, 300
PAD_START, PAD_END, PAD_TOP, PAD_BOTTOM = 48, 150, 16, 36
LABEL_GAP = 15


def _marker(shape: str, x: float, y: float, colour: str) -> str:
    r = 5
    if shape == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill="{colour}"/>'
    if shape == "square":
        return f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r}" height="{2 * r}" fill="{colour}"/>'
    if shape == "triangle":
        pts = f"{x:.1f},{y - r - 1:.1f} {x - r - 1:.1f},{y + r:.1f} {x + r + 1:.1f},{y + r:.1f}"
        return f'<polygon points="{pts}" fill="{colour}"/>'
    if shape == "diamond":
        pts = f"{x:.1f},{y - r - 1:.1f} {x + r + 1:.1f},{y:.1f} {x:.1f},{y + r + 1:.1f} {x - r - 1:.1f},{y:.1f}"
        return f'<polygon points="{pts}" fill="#fff" stroke="{colour}" stroke-width="2.5"/>'
    return (
        f'<path d="M{x - r:.1f},{y - r:.1f} L{x + r:.1f},{y + r:.1f} M{x - r:.1f},{y + r:.1f} L{x + r:.1f},{y - r:.1f}"'
        f' stroke="{colour}" stroke-width="3"/>'
    )


def _spread(ys: list[float], gap: float, low: float, high: float) -> list[float]:
    """Move label positions apart (keeping their order) so that no two are closer than ``gap``."""
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    out = list(ys)
    prev = None
    for i in order:
        if prev is not None and out[i] < prev + gap:
            out[i] = prev + gap
        prev = out[i]
    overflow = (prev or 0) - high
    if overflow > 0:
        out = [max(low, y - overflow) for y in out]
    return out


def series_shape(index: int) -> str:
    return SHAPES[index % len(SHAPES)]


@dataclass(frozen=True, slots=True)
class _Frame:
    """The plot area and its scales: round r at :meth:`x`, score v at :meth:`y`."""

    rounds: int
    top: float
    bottom: float
    plot_w: float = WIDTH - PAD_START - PAD_END
    plot_h: float = HEIGHT - PAD_TOP - PAD_BOTTOM

    @classmethod
    def of(cls, cumulative: Sequence[Sequence[int]]) -> _Frame:
        rounds = max((len(c) for c in cumulative), default=0)
        values = [0] + [v for c in cumulative for v in c]
        top, bottom = max(values), min(values)
        if top == bottom:
            top = bottom + 1
        return cls(rounds, top, bottom)

    def x(self, r: int) -> float:
        return PAD_START + (self.plot_w * r / self.rounds if self.rounds else 0)

    def y(self, v: float) -> float:
        return PAD_TOP + self.plot_h * (self.top - v) / (self.top - self.bottom)


def _axes(f: _Frame, x_label: str, y_label: str) -> list[str]:
    """Axes and grid: five horizontal lines with their values, one tick per round, the axis labels."""
    parts = []
    for k in range(5):
        v = f.bottom + (f.top - f.bottom) * k / 4
        parts.append(
            f'<line x1="{PAD_START}" x2="{PAD_START + f.plot_w}" y1="{f.y(v):.1f}" y2="{f.y(v):.1f}" class="grid"/>'
        )
        parts.append(f'<text x="{PAD_START - 6}" y="{f.y(v) + 4:.1f}" text-anchor="end" class="tick">{round(v)}</text>')
    step = max(1, f.rounds // 15)
    for r in range(0, f.rounds + 1, step):
        parts.append(
            f'<text x="{f.x(r):.1f}" y="{HEIGHT - PAD_BOTTOM + 16}" text-anchor="middle" class="tick">{r}</text>'
        )
    parts.append(
        f'<text x="{PAD_START + f.plot_w / 2:.1f}" y="{HEIGHT - 4}" text-anchor="middle" class="axis-label">'
        f"{escape(x_label)}</text>"
    )
    parts.append(
        f'<text x="12" y="{PAD_TOP + f.plot_h / 2:.1f}" text-anchor="middle" class="axis-label"'
        f' transform="rotate(-90 12 {PAD_TOP + f.plot_h / 2:.1f})">{escape(y_label)}</text>'
    )
    return parts


def _series(f: _Frame, p: int, series: Sequence[int]) -> tuple[list[str], tuple[float, float]]:
    """Player p's line with a marker per round, and the point where it ends."""
    colour, shape, dash = COLOURS[p % 5], SHAPES[p % 5], DASHES[p % 5]
    points = [(f.x(0), f.y(0))] + [(f.x(r + 1), f.y(v)) for r, v in enumerate(series)]
    path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
    dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
    parts = [
        f'<g class="series" data-seat="{p}"><polyline points="{path}" fill="none" stroke="{colour}"'
        f' stroke-width="2.5"{dash_attr}/>'
    ]
    for px, py in points[1:]:
        parts.append(_marker(shape, px, py, colour))
    parts.append("</g>")
    return parts, points[-1]


def _end_labels(ends: list[tuple[str, int, tuple[float, float], str, str]]) -> list[str]:
    """Each line's direct label (marker, name and total), moved apart so that none overlap."""
    parts = []
    label_ys = _spread([pt[1] + 4 for _n, _v, pt, _c, _s in ends], LABEL_GAP, PAD_TOP + 8, HEIGHT - PAD_BOTTOM)
    for (name, value, (px, _py), colour, shape), ly in zip(ends, label_ys, strict=True):
        lx = px + 14
        parts.append(_marker(shape, lx, ly - 4, colour))
        parts.append(f'<text x="{lx + 10:.1f}" y="{ly:.1f}" class="direct-label">{escape(name)} {value}</text>')
    return parts


def cumulative_chart(
    names: Sequence[str], cumulative: Sequence[Sequence[int]], *, title: str, desc: str, x_label: str, y_label: str
) -> SafeString:
    """``cumulative[p][r]``: player p's total after round r+1.  Returns the ``<svg>`` element."""
    f = _Frame.of(cumulative)
    parts = [
        f'<svg class="score-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-labelledby="chart-title chart-desc"'
        ' xmlns="http://www.w3.org/2000/svg" direction="ltr">',
        f'<title id="chart-title">{escape(title)}</title><desc id="chart-desc">{escape(desc)}</desc>',
        *_axes(f, x_label, y_label),
    ]
    ends = []
    for p, (name, series) in enumerate(zip(names, cumulative, strict=True)):
        line, end = _series(f, p, series)
        parts.extend(line)
        ends.append((name, series[-1] if series else 0, end, COLOURS[p % 5], SHAPES[p % 5]))
    parts.extend(_end_labels(ends))
    parts.append("</svg>")
    return mark_safe("".join(parts))  # every text above is escaped


def marker_svg(index: int) -> SafeString:
    """The small marker of seat ``index`` as in the chart (for legends and tables)."""
    shape, colour = SHAPES[index % len(SHAPES)], COLOURS[index % len(COLOURS)]
    return mark_safe(
        f'<svg class="marker" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">'
        f"{_marker(shape, 8, 8, colour)}</svg>"
    )
