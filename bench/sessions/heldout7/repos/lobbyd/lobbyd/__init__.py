"""lobbyd — the matchmaking daemon behind the lobby service."""

from lobbyd.matchmaker import Match, Matchmaker
from lobbyd.parties import Party, PartyRegistry
from lobbyd.queues import QueueManager
from lobbyd.ratings import Rating, update_ratings

__all__ = ["Match", "Matchmaker", "Party", "PartyRegistry", "QueueManager", "Rating", "update_ratings"]
__version__ = "0.6.0"
