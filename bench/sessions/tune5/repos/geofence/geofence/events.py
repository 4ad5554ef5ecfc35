"""Enter/exit events from a stream of fixes."""

from __future__ import annotations

from dataclasses import dataclass

from geofence.devices import Device
from geofence.fences import FenceStore


@dataclass(frozen=True)
class Event:
    kind: str  # "enter" | "exit"
    device_id: str
    fence_id: str
    at: float


class Tracker:
    def __init__(self, fences: FenceStore):
        self.fences = fences
        self._inside: dict[str, set[str]] = {}

    def observe(self, dev: Device) -> list[Event]:
        if dev.last is None:
            return []
        now = self.fences.containing(dev.customer_id, dev.last.point)
        before = self._inside.get(dev.device_id, set())
        events = [Event("enter", dev.device_id, f, dev.last.at) for f in sorted(now - before)]
        events += [Event("exit", dev.device_id, f, dev.last.at) for f in sorted(before - now)]
        self._inside[dev.device_id] = now
        return events
