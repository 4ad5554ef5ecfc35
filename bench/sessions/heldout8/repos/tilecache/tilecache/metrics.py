"""Process-wide counters, exposed in the Prometheus text format at /metrics."""

from __future__ import annotations

import threading
from collections import defaultdict


class Metrics:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counters: dict[tuple[str, tuple[tuple[str, str], ...]], float] = defaultdict(float)
        self._gauges: dict[str, float] = {}

    def inc(self, name: str, value: float = 1.0, **labels: str) -> None:
        key = (name, tuple(sorted(labels.items())))
        with self._lock:
            self._counters[key] += value

    def set_gauge(self, name: str, value: float) -> None:
        with self._lock:
            self._gauges[name] = value

    def get(self, name: str, **labels: str) -> float:
        return self._counters.get((name, tuple(sorted(labels.items()))), 0.0)

    def render(self) -> str:
        lines = []
        with self._lock:
            for (name, labels), value in sorted(self._counters.items()):
                if labels:
                    inner = ",".join(f'{k}="{v}"' for k, v in labels)
                    lines.append(f"tilecache_{name}{{{inner}}} {value:g}")
                else:
                    lines.append(f"tilecache_{name} {value:g}")
            for name, value in sorted(self._gauges.items()):
                lines.append(f"tilecache_{name} {value:g}")
        return "\n".join(lines) + "\n"


METRICS = Metrics()
