package io.jdm.common.sql;

/** Quotes identifiers for MySQL, MariaDB and TiDB: backticks, with embedded backticks doubled. */
public final class Identifiers {
    private Identifiers() {
    }

    public static String quote(String identifier) {
        StringBuilder sb = new StringBuilder(identifier.length() + 2);
        appendQuoted(sb, identifier);
        return sb.toString();
    }

    public static void appendQuoted(StringBuilder sb, String identifier) {
        sb.append('`');
        for (int i = 0; i < identifier.length(); i++) {
            char c = identifier.charAt(i);
            if (c == '`') {
                sb.append('`');
            }
            sb.append(c);
        }
        sb.append('`');
    }

    /** A string literal in single quotes, for the few places that need one (information_schema). */
    public static String literal(String value) {
        return "'" + value.replace("\\", "\\\\").replace("'", "''") + "'";
    }
}
