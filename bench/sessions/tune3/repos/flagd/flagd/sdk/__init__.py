from .client import FlagClient

__all__ = ["FlagClient"]
