"""Settings, read from WEBHOOKD_* environment variables."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    timeout_seconds: float = 10.0
    max_attempts: int = 6
    breaker_threshold: int = 5
    breaker_cooldown: float = 60.0
    dead_letter_path: str = "var/dead_letters.jsonl"
    user_agent: str = "webhookd/0.4"
    max_body_bytes: int = 256 * 1024

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        kwargs: dict[str, object] = {}
        for name, kind in (("timeout_seconds", float), ("max_attempts", int), ("breaker_threshold", int),
                           ("breaker_cooldown", float), ("max_body_bytes", int)):
            raw = env.get(f"WEBHOOKD_{name.upper()}")
            if raw is not None:
                try:
                    kwargs[name] = kind(raw)
                except ValueError as exc:
                    raise ValueError(f"WEBHOOKD_{name.upper()}={raw!r}: {exc}") from None
        if "WEBHOOKD_DEAD_LETTER_PATH" in env:
            kwargs["dead_letter_path"] = env["WEBHOOKD_DEAD_LETTER_PATH"]
        settings = cls(**kwargs)
        settings.validate()
        return settings

    def validate(self) -> None:
        if self.max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        if self.timeout_seconds <= 0:
            raise ValueError("timeout_seconds must be positive")
        if self.breaker_threshold < 1:
            raise ValueError("breaker_threshold must be at least 1")
