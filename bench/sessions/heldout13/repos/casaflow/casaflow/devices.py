"""The devices the hub knows and their last reported state."""

from __future__ import annotations

import time
from dataclasses import dataclass, field


@dataclass
class Device:
    name: str
    kind: str  # "light", "plug", "speaker", "sensor", "thermostat"
    room: str
    state: dict = field(default_factory=dict)
    seen_at: float | None = None

    @property
    def online(self) -> bool:
        return self.seen_at is not None and time.time() - self.seen_at < 300


class Registry:
    def __init__(self) -> None:
        self._devices: dict[str, Device] = {}

    def add(self, device: Device) -> None:
        if device.name in self._devices:
            raise ValueError(f"duplicate device {device.name!r}")
        self._devices[device.name] = device

    def get(self, name: str) -> Device:
        try:
            return self._devices[name]
        except KeyError:
            raise KeyError(f"unknown device {name!r}") from None

    def update(self, name: str, state: dict) -> Device:
        device = self.get(name)
        device.state.update(state)
        device.seen_at = time.time()
        return device

    def in_room(self, room: str) -> list[Device]:
        return [d for d in self._devices.values() if d.room == room]
