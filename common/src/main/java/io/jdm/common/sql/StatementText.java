package io.jdm.common.sql;

import io.jdm.common.sql.SqlScanner.Kind;
import java.util.Locale;
import java.util.Set;

/**
 * A source statement as status output and operator lines show it: on one line, at most
 * {@link #SHOWN} characters, and with the literals that hold a password left out. A statement of
 * the source is shown to whoever reads the status, so the credentials some statements carry stay
 * behind: after {@code IDENTIFIED} the literal of {@code BY '…'}, {@code AS '…'} or {@code USING '…'},
 * {@code PASSWORD '…'}, {@code PASSWORD('…')} and, once {@code PASSWORD} was read, {@code = '…'},
 * {@code MASTER_PASSWORD = '…'}, and a FEDERATED or CONNECT table's
 * {@code CONNECTION = '…'} (its URL names a user and password). Read by the one scanner, so a
 * keyword inside a literal or a comment does not count, and white space inside a literal is kept
 * (only line breaks become spaces).
 */
public final class StatementText {
    /** What one status line holds of a statement: enough to recognise it, the whole one is in the binlog. */
    public static final int SHOWN = 200;
    /** What a hidden literal reads as. */
    static final String HIDDEN = "'***'";
    /** A string literal right after one of these words (an {@code =} or {@code (} between is allowed) is a secret. */
    private static final Set<String> SECRET_AFTER = Set.of("PASSWORD", "MASTER_PASSWORD", "CONNECTION");
    private static final Set<String> AFTER_IDENTIFIED = Set.of("BY", "AS", "USING");

    private StatementText() {
    }

    /** {@code sql} on one line, secrets hidden, cut at {@link #SHOWN} characters with " …". */
    public static String shown(String sql) {
        String one = oneLine(sql);
        return one.length() <= SHOWN ? one : one.substring(0, SHOWN) + " …";
    }

    /** {@code sql} on one line, runs of white space in code as one space, secrets hidden; not cut. */
    public static String oneLine(String sql) {
        if (sql == null) {
            return "";
        }
        String text = sql.strip();
        StringBuilder out = new StringBuilder(text.length());
        Words words = new Words();
        new SqlScanner(SqlDialect.DEFAULT).scan(text, (kind, start, end) -> {
            if (kind == Kind.STRING) {
                out.append(words.secretNext() ? HIDDEN : flat(text, start, end));
                words.literal();
            } else if (kind == Kind.CODE || kind == Kind.COMMENT) {
                for (int i = start; i < end; i++) {
                    char c = text.charAt(i);
                    boolean blank = Character.isWhitespace(c);
                    if (!blank || (out.length() > 0 && out.charAt(out.length() - 1) != ' ')) {
                        out.append(blank ? ' ' : c);
                    }
                    if (kind == Kind.CODE) {
                        words.code(c);
                    }
                }
            } else {
                out.append(flat(text, start, end));
            }
        });
        return out.toString().strip();
    }

    /** A literal or quoted name with its line breaks as spaces. */
    private static String flat(String text, int start, int end) {
        return text.substring(start, end).replace('\r', ' ').replace('\n', ' ');
    }

    /** The last word of code read, to tell whether the next literal is a secret. */
    private static final class Words {
        private final StringBuilder word = new StringBuilder();
        private String last = "";
        /** IDENTIFIED was read: a literal after BY, AS or USING is a password or its hash. */
        private boolean identified;
        /** PASSWORD was read (SET PASSWORD FOR u = '…'): a literal right after an {@code =} is one. */
        private boolean password;
        /** The last code token was {@code =}. */
        private boolean equals;

        void code(char c) {
            if (SqlScanner.isBareNameChar(c)) {
                word.append(c);
                equals = false;
                return;
            }
            end();
            if (c == '=') {
                equals = true;
            } else if (c != '(' && !Character.isWhitespace(c)) {
                last = ""; // another token between the word and the literal
                equals = false;
            } else if (c == '(') {
                equals = false;
            }
        }

        private void end() {
            if (word.length() > 0) {
                last = word.toString().toUpperCase(Locale.ROOT);
                word.setLength(0);
                identified |= last.equals("IDENTIFIED");
                password |= last.equals("PASSWORD");
            }
        }

        boolean secretNext() {
            end();
            return SECRET_AFTER.contains(last) || (identified && AFTER_IDENTIFIED.contains(last))
                    || (password && equals);
        }

        void literal() {
            last = "";
            equals = false;
        }
    }
}
