"""``{{ x|number }}`` and ``{{ x|signed }}``: a whole number, a decimal or a fraction (matchpoints,
averages) written in the reader's language with at most two decimals ("12", "12.5", "−4.33"); ``signed``
always shows the sign of a result ("+12", "−4", "0"), with the minus sign U+2212."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from fractions import Fraction

from django import template
from django.utils import formats

register = template.Library()
MINUS = "\u2212"


def _decimal(value) -> Decimal | None:
    try:
        if isinstance(value, Fraction):
            value = Decimal(value.numerator) / Decimal(value.denominator)
        d = Decimal(str(value)) if not isinstance(value, Decimal) else value
        d = d.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    except (InvalidOperation, ValueError, TypeError):
        return None
    if d == d.to_integral_value():
        return d.quantize(Decimal(1))
    return d.normalize()


@register.filter
def number(value) -> str:
    d = _decimal(value)
    if d is None:
        return ""
    text = formats.number_format(abs(d), use_l10n=True)
    return MINUS + text if d < 0 else text


@register.filter
def signed(value) -> str:
    d = _decimal(value)
    if d is None:
        return ""
    text = formats.number_format(abs(d), use_l10n=True)
    return ("+" if d > 0 else MINUS if d < 0 else "") + text
