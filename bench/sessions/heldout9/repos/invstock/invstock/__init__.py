"""invstock: the warehouse inventory service (WMS core)."""

__version__ = "1.7.0"
