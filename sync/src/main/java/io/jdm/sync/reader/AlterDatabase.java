package io.jdm.sync.reader;

import io.jdm.common.sql.SqlDialect;
import io.jdm.common.sql.SqlScanner;
import java.util.Locale;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * {@code ALTER {DATABASE|SCHEMA} [name] options}: where the database's name is, so the schema
 * tracker can replay the statement on that database's scratch schema (the DDL parser does not
 * read ALTER DATABASE; this scanner reads only the statement's head, and belongs in the parser
 * once it does).
 *
 * @param db the database altered (the default database when the statement names none)
 * @param start where the name starts in the statement (where one goes, when it names none)
 * @param end where the name ends ({@code start} when it names none)
 */
record AlterDatabase(String db, int start, int end) {
    /** Words that start the options: a statement with one of them right after DATABASE names no database. */
    private static final Set<String> OPTION_WORDS = Set.of("DEFAULT", "CHARACTER", "CHARSET", "COLLATE", "READ",
            "ENCRYPTION", "COMMENT");
    /** Reads the head only: there both quotes are names (a string is no name), and every conditional comment runs. */
    private static final SqlScanner ANSI = new SqlScanner(new SqlDialect(true, false, Long.MAX_VALUE));

    /**
     * The statement's database, or null when it is not an ALTER DATABASE that changes the
     * database's options (UPGRADE DATA DIRECTORY NAME, or a head in a conditional comment).
     *
     * @param ansiQuotes asked only once the head has matched: whether "…" is a name
     */
    static AlterDatabase parse(String defaultDb, String sql, BooleanSupplier ansiQuotes) {
        int p = skipSpace(sql, 0);
        int q = word(sql, p);
        if (!sql.substring(p, q).equalsIgnoreCase("ALTER")) {
            return null;
        }
        p = skipSpace(sql, q);
        q = word(sql, p);
        String kw = sql.substring(p, q).toUpperCase(Locale.ROOT);
        if (!kw.equals("DATABASE") && !kw.equals("SCHEMA")) {
            return null;
        }
        p = skipSpace(sql, q);
        if (p >= sql.length()) {
            return null;
        }
        char c = sql.charAt(p);
        if (c == '`' || (c == '"' && ansiQuotes.getAsBoolean())) {
            SqlScanner.Token name = ANSI.token(sql, p);
            if (name == null) {
                return null;
            }
            return upgrade(sql, name.end()) ? null : new AlterDatabase(SqlScanner.unquote(sql, p, name.end()), p,
                    name.end());
        }
        q = word(sql, p);
        String next = sql.substring(p, q);
        String upper = next.toUpperCase(Locale.ROOT);
        if (upper.equals("UPGRADE") || next.isEmpty()) {
            return null;
        }
        if (OPTION_WORDS.contains(upper)) {
            return defaultDb == null || defaultDb.isEmpty() ? null : new AlterDatabase(defaultDb, p, p);
        }
        return upgrade(sql, q) ? null : new AlterDatabase(next, p, q);
    }

    /** UPGRADE DATA DIRECTORY NAME renames a 5.0-era directory; it changes no default. */
    private static boolean upgrade(String sql, int p) {
        int s = skipSpace(sql, p);
        return sql.substring(s, word(sql, s)).equalsIgnoreCase("UPGRADE");
    }

    /** The statement with the database's name replaced by {@code quotedName}. */
    String rewrite(String sql, String quotedName) {
        return sql.substring(0, start) + quotedName + (start == end ? " " : "") + sql.substring(end);
    }

    /** Skips white space and comments; a conditional comment the server runs is the head's text and stops it. */
    private static int skipSpace(String s, int p) {
        return ANSI.skipBlank(s, p, s.length());
    }

    private static int word(String s, int p) {
        while (p < s.length() && (Character.isLetterOrDigit(s.charAt(p)) || s.charAt(p) == '_'
                || s.charAt(p) == '$')) {
            p++;
        }
        return p;
    }
}
