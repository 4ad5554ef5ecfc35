"""snapvault: incremental, deduplicating backups."""

__version__ = "0.4.0"
