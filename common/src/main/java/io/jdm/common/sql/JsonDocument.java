package io.jdm.common.sql;

import java.util.List;

/**
 * A MySQL JSON document read in its binary form: the text MySQL prints for it, and the values
 * whose type that text cannot carry. MySQL parses JSON text into strings, integers, doubles and
 * literals only, so a DECIMAL, a DATE, TIME or DATETIME, an integer whose sign type its size decides
 * otherwise (the parser makes every integer above 2^32 - 1 unsigned) or an
 * opaque binary value would come back from its text as another type (a DECIMAL of 30 digits even
 * as another value), and a double of many digits as its neighbour (the parser rounds inexactly). Each such value is listed with its path and the SQL expression that builds
 * it, so a JSON column is written as {@code JSON_SET(text, path, expr, …)} and stores
 * what the source stored; a text column (MariaDB's JSON is LONGTEXT) takes the text.
 *
 * @param text  the document as MySQL 8.0 prints it ({@code SELECT doc}): its integral doubles end
 *              in {@code .0}, so the text parses back into the same types wherever {@code typed}
 *              is empty
 * @param typed the values the text cannot carry, in document order
 */
public record JsonDocument(String text, List<Typed> typed) implements CharSequence {

    /**
     * A value whose type the text loses.
     *
     * @param path       its MySQL path ({@code $."k"[2]})
     * @param expression the SQL expression that makes a JSON value of the same type and value, or
     *                   null when none does
     * @param refusal    when {@code expression} is null: why, in words a user acts on
     * @param printed    for a value MySQL prints as a string (a temporal or opaque value): that
     *                   string, which a MariaDB target, whose JSON is text, is given in place of
     *                   {@code expression} (MariaDB would print a TIME of over 32 hours or a
     *                   binary string otherwise than MySQL); null for a number
     */
    public record Typed(String path, String expression, String refusal, String printed) {
        /** A number's. */
        public Typed(String path, String expression, String refusal) {
            this(path, expression, refusal, null);
        }
    }

    public JsonDocument {
        typed = List.copyOf(typed);
    }

    /**
     * Appends the SQL expression for a JSON column: {@code JSON_SET(text, path, expr, …)}, which
     * MySQL reads as JSON with every listed value of its type, and MariaDB (whose JSON is text)
     * as the same text: a value that prints as a string is set back to that string in a comment only
     * MariaDB executes ({@code /*M!, path, 'printed' *}{@code /}). Without listed values, the text
     * cast to JSON (a JSON column compared with a string, as a keyless table's WHERE does, compares
     * it with a JSON string).
     */
    void appendTo(StringBuilder sb) {
        sb.append(typed.isEmpty() ? "CAST(" : "JSON_SET(");
        ValueEncoder.appendString(sb, text);
        if (typed.isEmpty()) {
            sb.append(" AS JSON)");
            return;
        }
        for (Typed t : typed) {
            if (t.expression() == null) {
                throw new IllegalArgumentException(t.refusal());
            }
            sb.append(", ");
            ValueEncoder.appendString(sb, t.path());
            sb.append(", ").append(t.expression());
            if (t.printed() != null) { // digits, signs, base64: never the comment's end
                sb.append(" /*M!, ");
                ValueEncoder.appendString(sb, t.path());
                sb.append(", ");
                ValueEncoder.appendString(sb, t.printed());
                sb.append(" */");
            }
        }
        sb.append(')');
    }

    @Override
    public int length() {
        return text.length();
    }

    @Override
    public char charAt(int index) {
        return text.charAt(index);
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return text.subSequence(start, end);
    }

    @Override
    public String toString() {
        return text;
    }
}
