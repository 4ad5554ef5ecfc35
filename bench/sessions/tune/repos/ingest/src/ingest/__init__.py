"""meterload: loads meter readings (CSV or JSON lines) from field gateways into SQLite."""

__version__ = "0.4.1"
