"""crumbs: ingest of the bakery stores' point-of-sale exports into the sales warehouse.

Each store's till (TillPoint) writes one CSV a day; the nightly job parses every export,
normalizes the rows into sale lines and upserts them into the warehouse (SQLite for now).
"""

from crumbs.parse import ExportError, read_export
from crumbs.pipeline import run
from crumbs.stores import Store, load_stores

__all__ = ["ExportError", "Store", "load_stores", "read_export", "run"]
__version__ = "0.4.0"
