"""tilecache: a small caching proxy for XYZ map tiles."""

from tilecache.tiles import Tile, tiles_for_bbox
from tilecache.store import DiskCache
from tilecache.fetcher import Fetcher, FetchError
from tilecache.policy import FreshnessPolicy

__all__ = ["Tile", "tiles_for_bbox", "DiskCache", "Fetcher", "FetchError", "FreshnessPolicy"]
__version__ = "0.4.1"
