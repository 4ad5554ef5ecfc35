"""mailq: an outbound email queue."""

from mailq.message import Message
from mailq.queue import OutboundQueue

__all__ = ["Message", "OutboundQueue"]
__version__ = "0.4.1"
