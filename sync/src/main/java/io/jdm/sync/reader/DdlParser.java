package io.jdm.sync.reader;

import io.jdm.common.sql.TableName;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the tables a DDL statement touches, enough to decide whether it concerns selected tables.
 * Not a SQL parser: it recognises the statement heads DM's DDL handling starts from and returns
 * an empty list for anything else (which the reader then ignores).
 */
final class DdlParser {
    private static final String NAME = "(`(?:[^`]|``)+`|[A-Za-z0-9_$\\u0080-\\uFFFF]+)";
    private static final String QNAME = NAME + "(?:\\s*\\.\\s*" + NAME + ")?";
    private static final Pattern HEAD = Pattern.compile(
            "^\\s*(?:/\\*.*?\\*/\\s*)*(CREATE|ALTER|DROP|TRUNCATE|RENAME)\\s+(.*)$",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern TABLE_AFTER = Pattern.compile(
            "^(?:OR\\s+REPLACE\\s+)?(?:TEMPORARY\\s+)?(?:ONLINE\\s+)?(?:IGNORE\\s+)?TABLE\\s+(?:IF\\s+(?:NOT\\s+)?EXISTS\\s+)?"
                    + "(?:/\\*.*?\\*/\\s*)?(.*)$", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern INDEX_ON = Pattern.compile(
            "^(?:OR\\s+REPLACE\\s+)?(?:ONLINE\\s+|OFFLINE\\s+)?(?:UNIQUE\\s+|FULLTEXT\\s+|SPATIAL\\s+)?INDEX\\s+.*?\\s+ON\\s+"
                    + QNAME, Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern Q = Pattern.compile("^\\s*,?\\s*" + QNAME, Pattern.DOTALL);

    private DdlParser() {
    }

    static List<TableName> tables(String defaultDb, String sql) {
        Matcher head = HEAD.matcher(sql);
        if (!head.matches()) {
            return List.of();
        }
        String verb = head.group(1).toUpperCase(Locale.ROOT);
        String rest = head.group(2);
        Matcher idx = INDEX_ON.matcher(rest);
        if ((verb.equals("CREATE") || verb.equals("DROP")) && idx.lookingAt()) {
            return List.of(name(defaultDb, idx.group(1), idx.group(2)));
        }
        Matcher t = TABLE_AFTER.matcher(rest);
        if (!t.matches() && !verb.equals("TRUNCATE")) {
            return List.of();
        }
        String names = t.matches() ? t.group(1) : rest;
        List<TableName> out = new ArrayList<>();
        switch (verb) {
            case "DROP", "RENAME" -> {
                // DROP TABLE a, b / RENAME TABLE a TO b, c TO d: every name in the list.
                String s = names;
                while (true) {
                    Matcher m = Q.matcher(s);
                    if (!m.lookingAt()) {
                        break;
                    }
                    out.add(name(defaultDb, m.group(1), m.group(2)));
                    s = s.substring(m.end()).replaceFirst("^\\s*(?i:TO)\\s+", ",");
                }
            }
            default -> {
                Matcher m = Q.matcher(names);
                if (m.lookingAt()) {
                    out.add(name(defaultDb, m.group(1), m.group(2)));
                }
            }
        }
        return out;
    }

    private static TableName name(String defaultDb, String first, String second) {
        return second == null ? new TableName(defaultDb == null ? "" : defaultDb, unquote(first))
                : new TableName(unquote(first), unquote(second));
    }

    private static String unquote(String s) {
        return s.startsWith("`") ? s.substring(1, s.length() - 1).replace("``", "`") : s;
    }
}
