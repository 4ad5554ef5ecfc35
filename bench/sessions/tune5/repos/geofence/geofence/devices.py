"""The devices we track and their last known fix."""

from __future__ import annotations

from dataclasses import dataclass, field

from geofence.geometry import Point


@dataclass
class Fix:
    point: Point
    at: float  # unix seconds, as the device reported it


@dataclass
class Device:
    device_id: str
    customer_id: str
    label: str = ""
    last: Fix | None = None
    tags: set[str] = field(default_factory=set)


class UnknownDevice(KeyError):
    pass


class DeviceRegistry:
    def __init__(self):
        self._devices: dict[str, Device] = {}

    def register(self, device_id: str, customer_id: str, label: str = "") -> Device:
        dev = Device(device_id, customer_id, label)
        self._devices[device_id] = dev
        return dev

    def get(self, device_id: str) -> Device:
        try:
            return self._devices[device_id]
        except KeyError:
            raise UnknownDevice(device_id) from None

    def update(self, device_id: str, point: Point, at: float) -> Device:
        dev = self.get(device_id)
        dev.last = Fix(point, at)
        return dev

    def all(self) -> list[Device]:
        return list(self._devices.values())
