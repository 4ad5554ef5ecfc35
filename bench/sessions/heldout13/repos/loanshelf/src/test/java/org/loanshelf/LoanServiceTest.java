package org.loanshelf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

class LoanServiceTest {
    static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    static LoanService at(String instant) {
        Clock clock = Clock.fixed(Instant.parse(instant), BERLIN);
        return new LoanService(new LoanPolicy(BERLIN), new FineCalculator(), clock);
    }

    static final Book DUNE = new Book("B-0001", "9780441013593", "Dune", 1899);
    static final Member ANA = new Member("C-100", "Ana", Member.Kind.ADULT);

    @Test
    void lendsForThreeWeeks() {
        Loan loan = at("2025-02-03T10:00:00Z").lend(DUNE, ANA);
        assertEquals(LocalDate.of(2025, 2, 24), loan.due());
    }

    @Test
    void refusesASecondLoanOfTheSameCopy() {
        LoanService service = at("2025-02-03T10:00:00Z");
        service.lend(DUNE, ANA);
        assertThrows(LoanService.LoanRefused.class, () -> service.lend(DUNE, ANA));
    }

    @Test
    void renewsTwiceThenRefuses() {
        LoanService service = at("2025-02-03T10:00:00Z");
        service.lend(DUNE, ANA);
        service.renew("B-0001");
        service.renew("B-0001");
        assertThrows(LoanService.LoanRefused.class, () -> service.renew("B-0001"));
    }

    @Test
    void noFineWithinGraceDays() {
        Loan loan = new Loan(DUNE, ANA, LocalDate.of(2025, 1, 1), LocalDate.of(2025, 1, 22));
        assertEquals(0, new FineCalculator().fineFor(loan, LocalDate.of(2025, 1, 24)));
    }

    @Test
    void adultsPayPerLateDay() {
        Loan loan = new Loan(DUNE, ANA, LocalDate.of(2025, 1, 1), LocalDate.of(2025, 1, 22));
        assertEquals(250, new FineCalculator().fineFor(loan, LocalDate.of(2025, 2, 1)));
    }
}
