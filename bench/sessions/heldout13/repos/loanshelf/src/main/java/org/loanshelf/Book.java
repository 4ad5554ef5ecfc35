package org.loanshelf;

import java.util.Objects;

/** A copy of a title on the shelf. Several copies share an ISBN; each has its own barcode. */
public final class Book {
    private final String barcode;
    private final String isbn;
    private final String title;
    private final long replacementPriceCents;

    public Book(String barcode, String isbn, String title, long replacementPriceCents) {
        if (replacementPriceCents < 0) {
            throw new IllegalArgumentException("negative replacement price for " + barcode);
        }
        this.barcode = Objects.requireNonNull(barcode);
        this.isbn = Objects.requireNonNull(isbn);
        this.title = Objects.requireNonNull(title);
        this.replacementPriceCents = replacementPriceCents;
    }

    public String barcode() { return barcode; }
    public String isbn() { return isbn; }
    public String title() { return title; }
    public long replacementPriceCents() { return replacementPriceCents; }

    @Override
    public boolean equals(Object o) {
        return o instanceof Book b && b.barcode.equals(barcode);
    }

    @Override
    public int hashCode() { return barcode.hashCode(); }

    @Override
    public String toString() { return title + " [" + barcode + "]"; }
}
