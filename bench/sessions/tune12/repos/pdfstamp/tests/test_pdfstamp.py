from pathlib import Path

import pytest

from pdfstamp.fonts import FontCache, style_of
from pdfstamp.naming import check_template, output_path, unique
from pdfstamp.pages import PageRange, PageRangeError, describe, parse_ranges
from pdfstamp.scrub import scrub_info


def test_single_pages_and_ranges():
    assert parse_ranges("1-3,5", total=10) == [0, 1, 2, 4]


def test_open_ended_range():
    assert parse_ranges("8-", total=10) == [7, 8, 9]
    assert parse_ranges("-2", total=10) == [0, 1]


def test_empty_expression_is_every_page():
    assert parse_ranges("", total=3) == [0, 1, 2]


def test_backwards_range_is_an_error():
    with pytest.raises(PageRangeError):
        PageRange(5, 2).resolve(10)


def test_garbage_is_an_error():
    with pytest.raises(PageRangeError):
        parse_ranges("1-3,x", total=10)


def test_describe_round_trips():
    assert describe([0, 1, 2, 4, 7, 8]) == "1-3,5,8-9"


def test_style_of():
    assert style_of("Inter-BoldItalic") == ("Inter", "bolditalic")
    assert style_of("Inter-Regular") == ("Inter", "regular")
    assert style_of("Lato") == ("Lato", "regular")


def test_font_cache_finds_files(tmp_path):
    (tmp_path / "Lato-Regular.ttf").write_bytes(b"")
    cache = FontCache([str(tmp_path)])
    assert cache.get("Lato").path.name == "Lato-Regular.ttf"
    assert cache.get("Nope") is None


def test_scrub_keeps_title_only_when_asked():
    info = {"/Title": "Q3", "/Author": "jdoe", "/Producer": "Word"}
    assert "/Title" not in scrub_info(info)
    assert scrub_info(info, keep_title=True)["/Title"] == "Q3"
    assert "/Author" not in scrub_info(info, keep_title=True)


def test_output_path_default_template():
    assert output_path(Path("/in/a.pdf"), None) == Path("/in/a-stamped.pdf")
    assert output_path(Path("/in/a.pdf"), Path("/out"), "{stem}-{n}") == Path("/out/a-1.pdf")


def test_unknown_template_field():
    with pytest.raises(ValueError):
        check_template("{stem}-{user}")


def test_unique(tmp_path):
    p = tmp_path / "a.pdf"
    assert unique(p) == p
    p.write_bytes(b"")
    assert unique(p) == tmp_path / "a (2).pdf"
