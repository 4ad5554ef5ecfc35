import pytest

from flagd.definitions import DefinitionError, load_flags


def test_load():
    flags = load_flags({"flags": {"dark-mode": {"variants": {"off": False, "on": True}, "default": "off",
                                                "rollout": 20}}})
    assert flags["dark-mode"].rollout == 20


def test_bad_default():
    with pytest.raises(DefinitionError):
        load_flags({"flags": {"x": {"variants": {"a": 1}, "default": "b"}}})
