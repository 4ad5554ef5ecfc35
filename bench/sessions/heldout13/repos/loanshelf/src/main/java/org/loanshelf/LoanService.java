package org.loanshelf;

import java.time.Clock;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Lending, renewing and returning. The only class that changes loans. */
public final class LoanService {
    private final LoanPolicy policy;
    private final FineCalculator fines;
    private final Clock clock;
    private final Map<String, Loan> openByBarcode = new HashMap<>();
    private final Map<String, List<String>> holdsByIsbn = new HashMap<>();
    private final Map<String, Long> finesByCard = new HashMap<>();

    public LoanService(LoanPolicy policy, FineCalculator fines, Clock clock) {
        this.policy = policy;
        this.fines = fines;
        this.clock = clock;
    }

    public Loan lend(Book book, Member member) {
        if (member.isBlocked()) {
            throw new LoanRefused(member.cardNumber() + " is blocked");
        }
        if (openByBarcode.containsKey(book.barcode())) {
            throw new LoanRefused(book + " is already lent");
        }
        long held = openByBarcode.values().stream().filter(l -> l.member().equals(member)).count();
        if (held >= policy.maxLoans(member)) {
            throw new LoanRefused(member.cardNumber() + " has reached " + policy.maxLoans(member) + " loans");
        }
        Loan loan = new Loan(book, member, LocalDate.now(clock), policy.dueDate(clock.instant()));
        openByBarcode.put(book.barcode(), loan);
        return loan;
    }

    public Loan renew(String barcode) {
        Loan loan = openLoan(barcode);
        if (!policy.mayRenew(loan)) {
            throw new LoanRefused(loan.book() + " cannot be renewed again");
        }
        loan.moveDue(policy.renewedDue(loan, LocalDate.now(clock)));
        return loan;
    }

    public long giveBack(String barcode) {
        Loan loan = openLoan(barcode);
        LocalDate today = LocalDate.now(clock);
        loan.close(today);
        openByBarcode.remove(barcode);
        long fine = fines.fineFor(loan, today);
        if (fine > 0) {
            finesByCard.merge(loan.member().cardNumber(), fine, Long::sum);
        }
        return fine;
    }

    public void placeHold(String isbn, Member member) {
        holdsByIsbn.computeIfAbsent(isbn, k -> new ArrayList<>()).add(member.cardNumber());
    }

    public List<String> holds(String isbn) {
        return List.copyOf(holdsByIsbn.getOrDefault(isbn, List.of()));
    }

    public long finesOwed(Member member) {
        return finesByCard.getOrDefault(member.cardNumber(), 0L);
    }

    private Loan openLoan(String barcode) {
        Loan loan = openByBarcode.get(barcode);
        if (loan == null) {
            throw new LoanRefused("no open loan for " + barcode);
        }
        return loan;
    }

    public static final class LoanRefused extends RuntimeException {
        public LoanRefused(String reason) { super(reason); }
    }
}
