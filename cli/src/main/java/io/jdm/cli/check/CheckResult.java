package io.jdm.cli.check;

/**
 * One line of the check table.
 *
 * @param item the check's name, as {@code ignore-checking-items} spells it
 * @param instance {@code source <id>} or {@code target}
 * @param detail what was found and, when not passing, what to do
 */
public record CheckResult(String item, String instance, Status status, String detail) {
    /** Ordered from best to worst, so the worst of a set is its maximum. */
    public enum Status { PASS, WARN, FAIL }

    static CheckResult pass(String item, String instance, String detail) {
        return new CheckResult(item, instance, Status.PASS, detail);
    }

    static CheckResult warn(String item, String instance, String detail) {
        return new CheckResult(item, instance, Status.WARN, detail);
    }

    static CheckResult fail(String item, String instance, String detail) {
        return new CheckResult(item, instance, Status.FAIL, detail);
    }
}
