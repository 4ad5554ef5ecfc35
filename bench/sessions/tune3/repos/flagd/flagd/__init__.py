"""flagd: a small feature-flag service."""

__version__ = "0.4.2"
