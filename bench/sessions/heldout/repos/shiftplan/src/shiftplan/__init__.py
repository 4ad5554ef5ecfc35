"""shiftplan: on-call rotations for small teams."""

from .recurrence import Pattern, Slot, expand_weekly
from .rota import Rotation, Shift

__all__ = ["Pattern", "Slot", "expand_weekly", "Rotation", "Shift"]
__version__ = "0.4.1"
