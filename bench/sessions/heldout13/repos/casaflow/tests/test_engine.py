from casaflow.conditions import parse_condition
from casaflow.devices import Device, Registry
from casaflow.engine import Engine
from casaflow.rules import Action, Rule


def make():
    registry = Registry()
    registry.add(Device("hall_sensor", "sensor", "hall"))
    registry.add(Device("hall_light", "light", "hall"))
    sent = []
    rule = Rule(
        name="hall light on motion",
        trigger="hall_sensor",
        conditions=[parse_condition("hall_sensor.motion == true")],
        actions=[Action("hall_light", {"on": True})],
    )
    return Engine(registry, [rule], lambda d, c: sent.append((d, c))), sent


def test_motion_turns_light_on():
    engine, sent = make()
    engine.on_report("hall_sensor", {"motion": True})
    assert sent == [("hall_light", {"on": True})]


def test_no_motion_does_nothing():
    engine, sent = make()
    engine.on_report("hall_sensor", {"motion": False})
    assert sent == []


def test_parse_numbers():
    c = parse_condition("living_thermo.temperature < 19.5")
    assert (c.device, c.attribute, c.op, c.value) == ("living_thermo", "temperature", "<", 19.5)
