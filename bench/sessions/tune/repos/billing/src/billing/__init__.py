"""Subscription billing: plans, proration, invoices, tax, dunning and the payment gateway."""
