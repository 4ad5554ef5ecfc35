"""Stock keeping for the small warehouse: bins, quantities, reservations, reorders."""
