"""bookshelf — a personal library catalogue."""

__version__ = "0.3.0"
