"""Coupons: a percentage or a fixed amount off the subtotal, with an expiry and a use limit."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from invoicer.money import round_minor


class CouponError(ValueError):
    pass


@dataclass
class Coupon:
    code: str
    percent_off: Decimal | None = None
    amount_off: int | None = None  # minor units
    expires: date | None = None
    max_uses: int | None = None
    uses: int = 0

    def __post_init__(self) -> None:
        if (self.percent_off is None) == (self.amount_off is None):
            raise CouponError("a coupon is either percent_off or amount_off")
        if self.percent_off is not None and not (0 < self.percent_off <= 100):
            raise CouponError("percent_off must be in (0, 100]")


def validate(coupon: Coupon, today: date) -> None:
    if coupon.expires is not None and today > coupon.expires:
        raise CouponError(f"coupon {coupon.code} expired on {coupon.expires.isoformat()}")
    if coupon.max_uses is not None and coupon.uses >= coupon.max_uses:
        raise CouponError(f"coupon {coupon.code} has been used up")


def discount_for(coupon: Coupon, subtotal: int) -> int:
    """The discount in minor units; never more than the subtotal."""
    if coupon.percent_off is not None:
        off = round_minor(subtotal * coupon.percent_off / 100)
    else:
        off = coupon.amount_off or 0
    return min(off, subtotal)


def redeem(coupon: Coupon, today: date) -> None:
    validate(coupon, today)
    coupon.uses += 1
