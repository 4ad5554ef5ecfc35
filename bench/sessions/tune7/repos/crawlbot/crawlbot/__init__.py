"""crawlbot: a small, polite web crawler."""

__version__ = "0.3.1"

USER_AGENT = "crawlbot/0.3 (+https://crawlbot.example.org/about)"
