"""tether: the why of a codebase, kept attached to the code."""

__version__ = "0.1.0"
