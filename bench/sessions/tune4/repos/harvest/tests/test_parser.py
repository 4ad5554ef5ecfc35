from harvest.parser import clean_text, parse_listing_page, parse_price

PAGE = """
<html><body>
<article class="listing" data-id="88121">
  <a class="listing-link" href="/item/88121">  Oak   dining table </a>
  <span class="price">€ 240</span><span class="location">Utrecht</span>
</article>
<article class="listing" data-id="88122">
  <a class="listing-link" href="/item/88122">Bike, 28"</a>
  <span class="location">Delft</span>
</article>
</body></html>
"""


def test_clean_text():
    assert clean_text("  a \n b ") == "a b"


def test_parse_price():
    assert parse_price("€ 240") == 240.0
    assert parse_price("on request") is None


def test_listing_page():
    items = parse_listing_page("marktplaats", "https://example.nl/search", PAGE)
    assert [i.external_id for i in items] == ["88121", "88122"]
    assert items[0].url == "https://example.nl/item/88121"
    assert items[0].title == "Oak dining table"
    assert items[1].price is None
