"""ledgerly: a small double-entry bookkeeping tool."""

__version__ = "0.3.0"
