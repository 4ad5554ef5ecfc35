"""Invoicing for Ledgerly: amounts are integers in minor units (cents) everywhere."""

from invoicer.invoice import Invoice
from invoicer.lines import LineItem

__all__ = ["Invoice", "LineItem"]
