"""ledgerline: double-entry bookkeeping in plain Python."""

from ledgerline.accounts import Account, AccountType, Chart
from ledgerline.journal import Entry, Journal, Posting
from ledgerline.money import Money

__all__ = ["Account", "AccountType", "Chart", "Entry", "Journal", "Money", "Posting"]
__version__ = "0.4.1"
