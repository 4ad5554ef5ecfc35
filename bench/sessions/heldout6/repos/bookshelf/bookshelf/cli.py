"""Command line: bookshelf add|lend|return|search|import."""

from __future__ import annotations

import argparse
from pathlib import Path

from . import catalog as cat
from .goodreads import import_csv
from .loans import load_loans, save_loans
from .search import search

HOME = Path.home() / ".bookshelf"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="bookshelf")
    sub = p.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("add")
    a.add_argument("isbn")
    a.add_argument("title")
    a.add_argument("--author", action="append", default=[])
    ln = sub.add_parser("lend")
    ln.add_argument("isbn")
    ln.add_argument("borrower")
    r = sub.add_parser("return")
    r.add_argument("isbn")
    s = sub.add_parser("search")
    s.add_argument("query")
    i = sub.add_parser("import")
    i.add_argument("csv", type=Path)
    args = p.parse_args(argv)

    HOME.mkdir(exist_ok=True)
    books = cat.load(HOME / "catalog.json")
    loans = load_loans(HOME / "loans.json")
    if args.cmd == "add":
        book = books.add(cat.Book(isbn=args.isbn, title=args.title, authors=args.author))
        print(f"added {book.label()}")
    elif args.cmd == "lend":
        loan = loans.lend(args.isbn, args.borrower)
        print(f"lent to {loan.borrower}" + (f", due {loan.due}" if loan.due else ""))
    elif args.cmd == "return":
        loans.return_book(args.isbn)
    elif args.cmd == "search":
        for sc, book in search(books, args.query):
            print(f"{sc:.2f}  {book.label()}")
    elif args.cmd == "import":
        report = import_csv(args.csv, books)
        print(f"{report.added} added, {report.duplicates} duplicates, {len(report.skipped)} skipped")
    cat.save(books, HOME / "catalog.json")
    save_loans(loans, HOME / "loans.json")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
