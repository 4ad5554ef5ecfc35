"""webhookd: signed webhook delivery with retries, a dead-letter queue and replay."""

from webhookd.breaker import BreakerRegistry, CircuitBreaker
from webhookd.deadletter import DeadLetter, DeadLetterQueue
from webhookd.delivery import Attempt, Deliverer, Event
from webhookd.subscriptions import Subscription, SubscriptionStore

__all__ = ["Attempt", "BreakerRegistry", "CircuitBreaker", "DeadLetter", "DeadLetterQueue", "Deliverer", "Event",
           "Subscription", "SubscriptionStore"]
__version__ = "0.4.0"
