"""Watch a workspace's notes folder (inotify and the like, through ``watchfiles``) so a
long-running process reads the index without scanning the folder on every call: at
10,000 notes one scan costs about 50 ms, a change notice nothing."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from .workspace import Workspace

log = logging.getLogger("tether")


def watch_notes(ws: Workspace) -> Callable[[], None] | None:
    """Start watching; returns the function that stops it, or None when the folder cannot
    be watched (not there yet, no watcher on this system): then every read scans it."""
    try:
        import watchfiles
    except ImportError:
        return None
    if not ws.notes_dir.is_dir():
        return None
    stop, started = threading.Event(), threading.Event()

    def run() -> None:
        try:
            # yield_on_timeout: the first (empty) yield says the watch is set up
            for changes in watchfiles.watch(ws.notes_dir, stop_event=stop, debounce=20, step=10,
                                            rust_timeout=200, yield_on_timeout=True, raise_interrupt=False,
                                            recursive=False):
                started.set()
                if changes:
                    ws.notes_changed()
        except Exception:  # noqa: BLE001 — losing the watcher must not lose notes: scan again
            log.exception("watching %s failed; reading it on every call instead", ws.notes_dir)
            ws.auto_refresh = True
        finally:
            started.set()

    threading.Thread(target=run, name="tether-notes-watcher", daemon=True).start()
    if not started.wait(5) or stop.is_set():
        stop.set()
        return None
    ws.notes_changed()  # anything written before the watch began
    ws.auto_refresh = False
    return stop.set
