from __future__ import annotations

import argparse
import logging
from datetime import timedelta
from pathlib import Path

from harvest import config
from harvest.fetcher import Blocked, Fetcher
from harvest.notify import SlackNotifier
from harvest.parser import next_page_url, parse_listing_page
from harvest.scheduler import Job, Scheduler
from harvest.store import RecordStore

log = logging.getLogger("harvest")


def run_source(src: config.Source, fetcher: Fetcher, store: RecordStore, slack: SlackNotifier) -> None:
    url: str | None = src.start_url
    new, changed = [], []
    pages = 0
    while url and pages < src.max_pages:
        try:
            html = fetcher.get(url)
        except Blocked:
            log.warning("%s: robots.txt disallows %s", src.name, url)
            break
        for item in parse_listing_page(src.name, url, html):
            status = store.upsert(item)
            if status == "new":
                new.append(item.title)
            elif status == "changed":
                changed.append(item.title)
        url = next_page_url(url, html)
        pages += 1
    log.info("%s: %d pages, %d new, %d changed", src.name, pages, len(new), len(changed))
    slack.send(src.name, new, changed)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="harvest")
    ap.add_argument("--config", type=Path, default=Path("harvest.toml"))
    ap.add_argument("--once", action="store_true", help="run every source once and exit")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    settings = config.load(args.config)
    fetcher = Fetcher(settings.user_agent)
    store = RecordStore(settings.db_path)
    slack = SlackNotifier(settings.slack_webhook)
    sched = Scheduler()
    for src in settings.sources:
        sched.add(Job(src.name, timedelta(minutes=src.every_minutes),
                      lambda s=src: run_source(s, fetcher, store, slack)))
    if args.once:
        sched.run_pending()
        return
    sched.loop()
