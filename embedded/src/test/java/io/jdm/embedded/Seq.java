package io.jdm.embedded;

/**
 * The integers 1..n as a derived table with one column {@code seq}, in SQL that MariaDB, MySQL 8.0
 * and 5.7 all run: what MariaDB's SEQUENCE engine ({@code seq_1_to_n}) gives, which MySQL lacks
 * (and 5.7 has no recursive CTE either). Cross joins of a ten-row digit table, filtered to n.
 */
public final class Seq {
    private static final String DIGITS = "(SELECT 0 d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3"
            + " UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8"
            + " UNION ALL SELECT 9)";

    private Seq() {
    }

    /** {@code (SELECT … AS seq …) AS seq_1_to_n}: usable wherever a table name goes in a FROM clause. */
    public static String upTo(long n) {
        if (n < 1) {
            throw new IllegalArgumentException("a sequence needs n >= 1, got " + n);
        }
        StringBuilder value = new StringBuilder("1");
        StringBuilder from = new StringBuilder();
        long scale = 1;
        for (int i = 0; scale < n; i++, scale *= 10) {
            value.append(" + ").append(scale).append(" * d").append(i).append(".d");
            from.append(i == 0 ? "" : " CROSS JOIN ").append(DIGITS).append(" d").append(i);
        }
        if (from.length() == 0) {
            return "(SELECT 1 AS seq) AS seq_1_to_1";
        }
        return "(SELECT " + value + " AS seq FROM " + from + " HAVING seq <= " + n + ") AS seq_1_to_" + n;
    }
}
