package org.loanshelf;

import java.time.LocalDate;
import java.util.Objects;

/** One book lent to one member. Renewals move the due date; returning closes the loan. */
public final class Loan {
    private final Book book;
    private final Member member;
    private final LocalDate lentOn;
    private LocalDate due;
    private int renewals;
    private LocalDate returnedOn;

    public Loan(Book book, Member member, LocalDate lentOn, LocalDate due) {
        this.book = Objects.requireNonNull(book);
        this.member = Objects.requireNonNull(member);
        this.lentOn = Objects.requireNonNull(lentOn);
        this.due = Objects.requireNonNull(due);
    }

    public Book book() { return book; }
    public Member member() { return member; }
    public LocalDate lentOn() { return lentOn; }
    public LocalDate due() { return due; }
    public int renewals() { return renewals; }
    public boolean isOpen() { return returnedOn == null; }
    public LocalDate returnedOn() { return returnedOn; }

    void moveDue(LocalDate newDue) {
        due = newDue;
        renewals++;
    }

    void close(LocalDate on) {
        if (!isOpen()) {
            throw new IllegalStateException(book + " already returned on " + returnedOn);
        }
        returnedOn = on;
    }
}
