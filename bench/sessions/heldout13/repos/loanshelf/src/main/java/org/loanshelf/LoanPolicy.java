package org.loanshelf;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;

/** How long a loan lasts, how often it may be renewed and how many books a member may hold. */
public final class LoanPolicy {
    public static final int LOAN_DAYS = 21;
    public static final int MAX_RENEWALS = 2;

    private final ZoneId libraryZone;

    public LoanPolicy(ZoneId libraryZone) {
        this.libraryZone = libraryZone;
    }

    public int maxLoans(Member member) {
        return switch (member.kind()) {
            case CHILD -> 5;
            case ADULT -> 12;
            case STAFF -> 30;
        };
    }

    /** The day a loan made at {@code lentAt} is due back. */
    public LocalDate dueDate(Instant lentAt) {
        Instant due = lentAt.plus(Duration.ofDays(LOAN_DAYS));
        return due.atZone(libraryZone).toLocalDate();
    }

    public LocalDate renewedDue(Loan loan, LocalDate today) {
        LocalDate from = today.isAfter(loan.due()) ? today : loan.due();
        return from.plusDays(LOAN_DAYS);
    }

    public boolean mayRenew(Loan loan) {
        return loan.isOpen() && loan.renewals() < MAX_RENEWALS;
    }
}
