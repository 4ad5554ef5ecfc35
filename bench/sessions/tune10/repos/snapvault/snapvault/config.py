"""Configuration: ``~/.config/snapvault/config.toml``, then environment overrides."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from .retention import Policy

DEFAULT_PATH = Path("~/.config/snapvault/config.toml").expanduser()


class ConfigError(Exception):
    pass


@dataclass
class Config:
    repository: Path
    sources: list[Path]
    exclude: list[str] = field(default_factory=list)
    encrypt: bool = True
    passphrase_command: str | None = None
    retention: Policy = field(default_factory=Policy)


def _policy(raw: dict) -> Policy:
    known = {"keep_last", "keep_daily", "keep_weekly", "keep_monthly"}
    unknown = set(raw) - known
    if unknown:
        raise ConfigError(f"unknown retention keys: {', '.join(sorted(unknown))}")
    return Policy(**{k: int(v) for k, v in raw.items()})


def load_config(path: Path | None = None, env: dict[str, str] | None = None) -> Config:
    env = os.environ if env is None else env
    path = Path(env.get("SNAPVAULT_CONFIG", path or DEFAULT_PATH))
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"no config at {path}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    if "repository" not in raw:
        raise ConfigError(f"{path}: 'repository' is required")
    cfg = Config(
        repository=Path(env.get("SNAPVAULT_REPOSITORY", raw["repository"])).expanduser(),
        sources=[Path(s).expanduser() for s in raw.get("sources", [])],
        exclude=list(raw.get("exclude", [])),
        encrypt=bool(raw.get("encrypt", True)),
        passphrase_command=raw.get("passphrase_command"),
        retention=_policy(raw.get("retention", {})),
    )
    if not cfg.sources:
        raise ConfigError(f"{path}: no sources")
    return cfg
