"""Server settings, from ``initializationOptions`` and ``workspace/didChangeConfiguration``:

    {"severity": {"orphaned": "error", "superseded": "off", ...},   # per diagnostic code
     "codeLens": true,
     "exclude": ["vendor/**", "**/generated/**"]}                    # workspace-relative globs

Unknown keys and bad values are reported and the defaults kept: a typo in a setting
never switches the server off."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..checks.findings import CODES as FINDING_CODES
from .convert import PROPOSED

CODES = (*FINDING_CODES, PROPOSED)  # what a diagnostic's code can be, and so a severity's key
SEVERITIES = ("error", "warning", "info", "hint", "off")


@dataclass
class Settings:
    severity: dict[str, str] = field(default_factory=dict)
    code_lens: bool = True
    exclude: list[str] = field(default_factory=list)


def parse_settings(obj) -> tuple[Settings, list[str]]:
    s, errors = Settings(), []
    if obj is None:
        return s, errors
    if not isinstance(obj, dict):
        return s, [f"expected an object, got {type(obj).__name__}"]
    for key, value in obj.items():
        if key == "severity":
            if not isinstance(value, dict):
                errors.append("severity: expected an object of code -> severity")
                continue
            for code, sev in value.items():
                if code not in CODES:
                    errors.append(f"severity.{code}: unknown code (known: {', '.join(CODES)})")
                elif sev not in SEVERITIES:
                    errors.append(f"severity.{code}: '{sev}' is not one of {', '.join(SEVERITIES)}")
                else:
                    s.severity[code] = sev
        elif key == "codeLens":
            if isinstance(value, bool):
                s.code_lens = value
            else:
                errors.append("codeLens: expected true or false")
        elif key == "exclude":
            if isinstance(value, list) and all(isinstance(g, str) for g in value):
                s.exclude = list(value)
            else:
                errors.append("exclude: expected a list of glob patterns")
        else:
            errors.append(f"{key}: unknown setting")
    return s, errors
