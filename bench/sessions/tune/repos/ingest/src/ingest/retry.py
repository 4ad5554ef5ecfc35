import sqlite3


def with_retries(fn, attempts: int = 3):
    """Call ``fn``; SQLite says 'database is locked' while the dashboard reads, so try again."""
    for i in range(attempts):
        try:
            return fn()
        except sqlite3.OperationalError:
            if i == attempts - 1:
                raise
