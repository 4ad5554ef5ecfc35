"""etlpipe: a small batch data pipeline."""

__version__ = "0.4.1"
