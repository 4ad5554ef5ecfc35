"""The language registry as ``grammars/languages.toml`` says it now: read from a JSON twin
beside it only when the twin was made from that very text."""

from __future__ import annotations

import datetime
from pathlib import Path

from tether.core.languages import _read_toml, registry


def test_languages_toml_is_read_as_it_is_now_whatever_twin_is_kept(tmp_path: Path):
    toml = tmp_path / "languages.toml"
    toml.write_text('[x]\nextensions = [".x"]\n')
    assert _read_toml(toml) == {"x": {"extensions": [".x"]}}
    twin = tmp_path / "__pycache__" / "languages.toml.json"
    assert twin.is_file()
    assert _read_toml(toml) == {"x": {"extensions": [".x"]}}  # (from the twin)
    toml.write_text('[x]\nextensions = [".x", ".xx"]\n')  # edited: the twin of the old text is not used
    assert _read_toml(toml) == {"x": {"extensions": [".x", ".xx"]}}
    twin.write_text("{not json")  # damaged: parsed again, and made again
    assert _read_toml(toml) == {"x": {"extensions": [".x", ".xx"]}}
    assert _read_toml(toml) == {"x": {"extensions": [".x", ".xx"]}}
    toml.write_text("[x]\nsince = 2026-01-01\n")  # a value JSON has no form for: parsed each time
    assert _read_toml(toml) == {"x": {"since": datetime.date(2026, 1, 1)}}
    assert sorted(p.name for p in twin.parent.iterdir()) == ["languages.toml.json"]  # no part left behind


def test_the_registry_knows_every_language_of_the_grammars_folder():
    assert {".py", ".ts", ".go", ".rs", ".java", ".js"} <= {e for lang in registry().values() for e in lang.extensions}
