from datetime import date

import pytest

from bookshelf.catalog import Book, Catalog
from bookshelf.goodreads import import_rows
from bookshelf.isbn import InvalidISBN, is_valid_isbn10, is_valid_isbn13, parse_isbn, to_isbn13
from bookshelf.loans import LoanBook, LoanError
from bookshelf.search import fold, search


def test_isbn10_valid():
    assert is_valid_isbn10("0306406152")
    assert not is_valid_isbn10("0306406153")


def test_isbn13_valid():
    assert is_valid_isbn13("9780306406157")


def test_parse_strips_hyphens():
    assert parse_isbn("0-306-40615-2") == "0306406152"


def test_parse_rejects_garbage():
    with pytest.raises(InvalidISBN):
        parse_isbn("hello")


def test_to_isbn13():
    assert to_isbn13("0306406152") == "9780306406157"


def test_catalog_duplicate():
    c = Catalog()
    c.add(Book(isbn="9780306406157", title="Tiny"))
    with pytest.raises(KeyError):
        c.add(Book(isbn="9780306406157", title="Tiny again"))


def test_lend_and_return():
    loans = LoanBook()
    loans.lend("9780306406157", "Marta", on=date(2026, 3, 1), due=date(2026, 3, 15))
    with pytest.raises(LoanError):
        loans.lend("9780306406157", "Pau")
    assert loans.overdue(date(2026, 3, 20))[0].borrower == "Marta"
    loans.return_book("9780306406157", on=date(2026, 3, 21))
    assert loans.overdue(date(2026, 3, 22)) == []


def test_fold():
    assert fold("Cien años de soledad!") == "cien anos de soledad"


def test_search_by_author():
    c = Catalog()
    c.add(Book(isbn="9780306406157", title="Cien años de soledad", authors=["Gabriel García Márquez"]))
    hits = search(c, "garcia marquez")
    assert hits and hits[0][1].isbn == "9780306406157"


def test_import_rows():
    c = Catalog()
    rows = [{"Title": "Dune", "Author": "Frank Herbert", "ISBN": "", "ISBN13": "9780441013593",
             "My Rating": "5", "Exclusive Shelf": "read", "Year Published": "2005",
             "Original Publication Year": "1965"}]
    report = import_rows(rows, c)
    assert report.added == 1
    assert c.get("9780441013593").year == 1965
