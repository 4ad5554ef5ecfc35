"""authgate: login, sessions and second factors for the customer portal."""

__version__ = "0.4.0"
