package org.loanshelf;

import java.util.Objects;

/** A library card holder. Children's cards have a lower loan limit. */
public final class Member {
    public enum Kind { ADULT, CHILD, STAFF }

    private final String cardNumber;
    private final String name;
    private final Kind kind;
    private boolean blocked;

    public Member(String cardNumber, String name, Kind kind) {
        this.cardNumber = Objects.requireNonNull(cardNumber);
        this.name = Objects.requireNonNull(name);
        this.kind = Objects.requireNonNull(kind);
    }

    public String cardNumber() { return cardNumber; }
    public String name() { return name; }
    public Kind kind() { return kind; }
    public boolean isBlocked() { return blocked; }

    public void block() { blocked = true; }
    public void unblock() { blocked = false; }
}
