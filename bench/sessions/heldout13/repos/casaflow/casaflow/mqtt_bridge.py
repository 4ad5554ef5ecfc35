"""MQTT <-> engine: device reports come in on ``home/<device>/state``, commands go out on
``home/<device>/set``."""

from __future__ import annotations

import json
import logging

import paho.mqtt.client as mqtt

from casaflow.engine import Engine

log = logging.getLogger("casaflow.mqtt")


class MqttBridge:
    def __init__(self, host: str, port: int = 1883) -> None:
        self.client = mqtt.Client(client_id="casaflow", clean_session=False)
        self.client.on_connect = self.on_connect
        self.client.on_message = self.on_message
        self.host = host
        self.port = port
        self.engine: Engine | None = None

    def publish(self, device: str, command: dict) -> None:
        self.client.publish(f"home/{device}/set", json.dumps(command), qos=1)

    def run(self, engine: Engine) -> None:
        self.engine = engine
        self.client.connect(self.host, self.port)
        self.client.loop_forever()

    def on_connect(self, client, userdata, flags, rc) -> None:
        log.info("connected to %s:%s (rc=%s)", self.host, self.port, rc)
        client.subscribe("home/+/state", qos=1)

    def on_message(self, client, userdata, msg) -> None:
        device = msg.topic.split("/")[1]
        try:
            state = json.loads(msg.payload)
        except ValueError:
            log.warning("bad payload from %s: %r", device, msg.payload[:80])
            return
        self.engine.on_report(device, state)
