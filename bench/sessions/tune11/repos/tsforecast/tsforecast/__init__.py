"""Time-series utilities for meter data (pure Python, no numpy)."""

from .series import Series, NaN, isnan

__all__ = ["Series", "NaN", "isnan"]
