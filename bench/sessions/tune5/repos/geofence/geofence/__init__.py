"""Geofencing for fleets: fences, devices, enter/exit events, webhooks."""

__version__ = "0.4.1"
