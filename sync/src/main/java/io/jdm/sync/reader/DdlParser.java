package io.jdm.sync.reader;

import io.jdm.common.filter.EventType;
import io.jdm.common.sql.TableName;
import io.jdm.sync.reader.ParsedDdl.Ref;
import io.jdm.sync.reader.ParsedDdl.Role;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Recognises the DDL statements sync applies (CREATE/ALTER/DROP/RENAME/TRUNCATE TABLE,
 * CREATE/DROP INDEX, CREATE/DROP DATABASE) and finds where each table name sits in the text. Not
 * a SQL parser: it reads the statement heads DM's DDL handling starts from, plus LIKE, RENAME TO
 * and REFERENCES names, and returns null for anything else (which the reader then passes by).
 * Comments are blanked (same length) before matching, so gh-ost's {@code alter /* gh-ost *&#47;
 * table} reads like any ALTER and spans still point into the original text.
 */
final class DdlParser {
    private static final String NAME_RE = "`(?:[^`]|``)+`|[A-Za-z0-9_$\\u0080-\\uFFFF]+";
    private static final String QNAME = "(?<a>" + NAME_RE + ")(?:\\s*\\.\\s*(?<b>" + NAME_RE + "))?";
    private static final int FLAGS = Pattern.CASE_INSENSITIVE | Pattern.DOTALL;
    private static final Pattern COMMENT = Pattern.compile("/\\*.*?\\*/", Pattern.DOTALL);
    private static final Pattern HEAD = Pattern.compile("\\s*(CREATE|ALTER|DROP|TRUNCATE|RENAME)\\s+", FLAGS);
    private static final Pattern DATABASE = Pattern.compile(
            "(?:DATABASE|SCHEMA)\\s+(?:IF\\s+(?:NOT\\s+)?EXISTS\\s+)?(?<a>" + NAME_RE + ")", FLAGS);
    private static final Pattern INDEX_ON = Pattern.compile("(?:OR\\s+REPLACE\\s+)?(?:ONLINE\\s+|OFFLINE\\s+)?"
            + "(?:UNIQUE\\s+|FULLTEXT\\s+|SPATIAL\\s+)?INDEX\\s+.*?\\s+ON\\s+" + QNAME, FLAGS);
    private static final Pattern TABLE = Pattern.compile("(?:OR\\s+REPLACE\\s+)?(TEMPORARY\\s+)?"
            + "(?:ONLINE\\s+|OFFLINE\\s+)?(?:IGNORE\\s+)?TABLE\\s+(?:IF\\s+(?:NOT\\s+)?EXISTS\\s+)?", FLAGS);
    private static final Pattern NAME_AT = Pattern.compile("\\s*" + QNAME, FLAGS);
    private static final Pattern COMMA = Pattern.compile("\\s*,\\s*", FLAGS);
    private static final Pattern TO = Pattern.compile("\\s+TO\\s+", FLAGS);
    private static final Pattern LIKE = Pattern.compile("\\s*\\(?\\s*LIKE\\s+" + QNAME, FLAGS);
    private static final Pattern REFERENCES = Pattern.compile("\\bREFERENCES\\s+" + QNAME, FLAGS);
    private static final Pattern ALTER_RENAME = Pattern.compile(
            "\\bRENAME\\s+(?!COLUMN\\b|INDEX\\b|KEY\\b)(?:TO\\s+|AS\\s+)?" + QNAME, FLAGS);

    private DdlParser() {
    }

    /** The tables a DDL statement acts on (old and new names of a rename); empty if it is not one sync applies. */
    static List<TableName> tables(String defaultDb, String sql) {
        ParsedDdl d = parse(defaultDb, sql);
        return d == null || d.isDatabase() ? List.of() : d.touched();
    }

    /** The statement with its names located, or null when it is not a DDL sync applies. */
    static ParsedDdl parse(String defaultDb, String sql) {
        String db = defaultDb == null ? "" : defaultDb;
        String m = blankComments(sql);
        Matcher head = HEAD.matcher(m);
        if (!head.lookingAt()) {
            return null;
        }
        String verb = head.group(1).toUpperCase(Locale.ROOT);
        int p = head.end();
        List<Ref> refs = new ArrayList<>();
        if (verb.equals("CREATE") || verb.equals("DROP")) {
            Matcher d = at(DATABASE, m, p);
            if (d.lookingAt()) {
                refs.add(new Ref(new TableName(unquote(d.group("a")), ""), d.start("a"), d.end("a"), Role.DATABASE));
                return new ParsedDdl(verb.equals("CREATE") ? EventType.CREATE_DATABASE : EventType.DROP_DATABASE,
                        sql, refs);
            }
            Matcher i = at(INDEX_ON, m, p);
            if (i.lookingAt()) {
                refs.add(ref(db, i, Role.TABLE));
                return new ParsedDdl(verb.equals("CREATE") ? EventType.CREATE_INDEX : EventType.DROP_INDEX, sql, refs);
            }
        }
        Matcher t = at(TABLE, m, p);
        if (t.lookingAt()) {
            if (t.group(1) != null) {
                return null; // temporary tables live in one session; ROW binlogs carry no rows of them
            }
            p = t.end();
        } else if (!verb.equals("TRUNCATE")) {
            return null;
        }
        Matcher n = at(NAME_AT, m, p);
        if (!n.lookingAt()) {
            return null;
        }
        refs.add(ref(db, n, Role.TABLE));
        p = n.end();
        switch (verb) {
            case "DROP" -> p = more(m, p, db, refs, false);
            case "RENAME" -> p = more(m, p, db, refs, true);
            default -> {
            }
        }
        if (verb.equals("CREATE")) {
            Matcher like = at(LIKE, m, p);
            if (like.lookingAt()) {
                refs.add(ref(db, like, Role.LIKE));
            }
        }
        if (verb.equals("ALTER")) {
            Matcher r = ALTER_RENAME.matcher(m).region(p, m.length());
            if (r.find()) {
                refs.add(ref(db, r, Role.TO));
            }
        }
        if (verb.equals("CREATE") || verb.equals("ALTER")) {
            Matcher r = REFERENCES.matcher(m).region(p, m.length());
            while (r.find()) {
                refs.add(ref(db, r, Role.REFERENCES));
            }
        }
        return new ParsedDdl(kind(verb), sql, refs);
    }

    /** The rest of DROP TABLE a, b, … or RENAME TABLE a TO b, c TO d, …; returns where it stopped. */
    private static int more(String m, int p, String db, List<Ref> refs, boolean rename) {
        while (true) {
            if (rename) {
                Matcher to = at(TO, m, p);
                Matcher n = to.lookingAt() ? at(NAME_AT, m, to.end()) : null;
                if (n == null || !n.lookingAt()) {
                    return p;
                }
                refs.add(ref(db, n, Role.TO));
                p = n.end();
            }
            Matcher c = at(COMMA, m, p);
            Matcher n = c.lookingAt() ? at(NAME_AT, m, c.end()) : null;
            if (n == null || !n.lookingAt()) {
                return p;
            }
            refs.add(ref(db, n, Role.TABLE));
            p = n.end();
        }
    }

    private static EventType kind(String verb) {
        return switch (verb) {
            case "CREATE" -> EventType.CREATE_TABLE;
            case "ALTER" -> EventType.ALTER_TABLE;
            case "DROP" -> EventType.DROP_TABLE;
            case "RENAME" -> EventType.RENAME_TABLE;
            default -> EventType.TRUNCATE_TABLE;
        };
    }

    private static Matcher at(Pattern p, String s, int from) {
        return p.matcher(s).region(from, s.length());
    }

    private static Ref ref(String db, Matcher m, Role role) {
        String a = unquote(m.group("a"));
        String b = m.group("b");
        TableName name = b == null ? new TableName(db, a) : new TableName(a, unquote(b));
        return new Ref(name, m.start("a"), b == null ? m.end("a") : m.end("b"), role);
    }

    private static String blankComments(String sql) {
        Matcher c = COMMENT.matcher(sql);
        if (!c.find()) {
            return sql;
        }
        StringBuilder sb = new StringBuilder(sql);
        do {
            for (int i = c.start(); i < c.end(); i++) {
                sb.setCharAt(i, ' ');
            }
        } while (c.find());
        return sb.toString();
    }

    private static String unquote(String s) {
        return s.startsWith("`") ? s.substring(1, s.length() - 1).replace("``", "`") : s;
    }
}
