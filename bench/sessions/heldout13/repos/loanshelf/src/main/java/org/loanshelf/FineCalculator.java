package org.loanshelf;

import java.time.LocalDate;
import java.time.temporal.ChronoUnit;

/** Late fines, in cents. Children pay half. Staff pay nothing. */
public final class FineCalculator {
    public static final long CENTS_PER_DAY = 25;
    public static final int GRACE_DAYS = 2;

    public long fineFor(Loan loan, LocalDate returnedOn) {
        long late = ChronoUnit.DAYS.between(loan.due(), returnedOn);
        if (late <= GRACE_DAYS) {
            return 0;
        }
        long fine = late * CENTS_PER_DAY;
        return switch (loan.member().kind()) {
            case STAFF -> 0;
            case CHILD -> fine / 2;
            case ADULT -> fine;
        };
    }

    public static String format(long cents) {
        return String.format("%d.%02d EUR", cents / 100, cents % 100);
    }
}
