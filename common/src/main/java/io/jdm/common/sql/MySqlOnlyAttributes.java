package io.jdm.common.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * MySQL 8 writes some attributes of a table in conditional comments a MariaDB server skips
 * ({@code /*!80000 …*&#47;}: MariaDB runs no MySQL 8 comment), so a MySQL definition created on
 * MariaDB as it is loses them in silence. MariaDB has each under another name; this spells them
 * its way in a CREATE TABLE as {@code SHOW CREATE TABLE} prints it (one definition per line):
 *
 * <ul>
 *   <li>an invisible column {@code /*!80023 INVISIBLE *&#47;} (a generated invisible primary key's
 *       {@code my_row_id} too) → {@code INVISIBLE};
 *   <li>an invisible index {@code /*!80000 INVISIBLE *&#47;} → {@code IGNORED} (MariaDB 10.6+: kept,
 *       not used by the optimizer);
 *   <li>a spatial column's {@code /*!80003 SRID n *&#47;} → {@code REF_SYSTEM_ID=n}.
 * </ul>
 *
 * What MariaDB cannot keep (functional indexes, CHECK … NOT ENFORCED) is left as it is: the
 * target refuses the first, and {@code jdm check} names both.
 */
public final class MySqlOnlyAttributes {
    private static final Pattern ATTRIBUTE = Pattern.compile(
            "/\\*!8\\d{4}\\s+(INVISIBLE|SRID\\s+(\\d+))\\s*\\*/", Pattern.CASE_INSENSITIVE);
    /** Reads MySQL 8 comments as comments, as MariaDB does. */
    private static final SqlScanner MARIADB_VIEW = new SqlScanner(new SqlDialect(false, false, 79_999));
    private static final List<String> INDEX_HEADS = List.of("KEY", "UNIQUE", "INDEX", "PRIMARY", "FULLTEXT",
            "SPATIAL");

    /** The statement with its MySQL 8 attributes spelled MariaDB's way, and what was rewritten. */
    public record Rewrite(String sql, List<String> changes) {
    }

    private MySqlOnlyAttributes() {
    }

    public static Rewrite forMariadb(String createTable) {
        List<int[]> comments = new ArrayList<>();
        MARIADB_VIEW.scan(createTable, (kind, start, end) -> {
            if (kind == SqlScanner.Kind.COMMENT) {
                comments.add(new int[] {start, end});
            }
        });
        StringBuilder out = new StringBuilder(createTable.length());
        List<String> changes = new ArrayList<>();
        int copied = 0;
        for (int[] c : comments) {
            Matcher m = ATTRIBUTE.matcher(createTable).region(c[0], c[1]);
            if (!m.matches()) {
                continue;
            }
            String definition = definitionAt(createTable, c[0]);
            String head = firstWord(definition);
            boolean column = definition.startsWith("`");
            boolean index = INDEX_HEADS.contains(head);
            String replacement;
            if (m.group(2) != null && column) {
                // MariaDB reads REF_SYSTEM_ID as part of the type: right after it, before NOT NULL
                int after = afterType(createTable, createTable.lastIndexOf('\n', c[0]) + 1, c[0]);
                if (after < copied) {
                    continue;
                }
                out.append(createTable, copied, after).append(" REF_SYSTEM_ID=").append(m.group(2))
                        .append(createTable, after, c[0]);
                copied = c[1];
                changes.add(createTable.substring(c[0], c[1]) + " → REF_SYSTEM_ID=" + m.group(2) + " in "
                        + shortly(definition));
                continue;
            } else if (m.group(2) == null && column) {
                replacement = "INVISIBLE";
            } else if (m.group(2) == null && index) {
                replacement = "IGNORED";
            } else {
                continue;
            }
            out.append(createTable, copied, c[0]).append(replacement);
            copied = c[1];
            changes.add(createTable.substring(c[0], c[1]) + " → " + replacement + " in " + shortly(definition));
        }
        out.append(createTable, copied, createTable.length());
        return new Rewrite(out.toString(), changes);
    }

    /** Just past the type word of the column definition in {@code sql[from, to)}; -1 when not found. */
    private static int afterType(String sql, int from, int to) {
        int i = from;
        while (i < to && sql.charAt(i) == ' ') {
            i++;
        }
        if (i >= to || sql.charAt(i) != '`') {
            return -1;
        }
        for (i++; i < to; i++) { // the quoted name; a doubled backtick is one inside it
            if (sql.charAt(i) == '`') {
                if (i + 1 < to && sql.charAt(i + 1) == '`') {
                    i++;
                } else {
                    break;
                }
            }
        }
        i++;
        while (i < to && sql.charAt(i) == ' ') {
            i++;
        }
        int word = i;
        while (i < to && Character.isLetter(sql.charAt(i))) {
            i++;
        }
        return i > word ? i : -1;
    }

    /** The definition line the offset is on, without its indentation. */
    private static String definitionAt(String sql, int at) {
        int start = sql.lastIndexOf('\n', at) + 1;
        return sql.substring(start, at).strip();
    }

    private static String firstWord(String definition) {
        int end = 0;
        while (end < definition.length() && Character.isLetter(definition.charAt(end))) {
            end++;
        }
        return definition.substring(0, end).toUpperCase(Locale.ROOT);
    }

    private static String shortly(String definition) {
        return definition.length() > 60 ? definition.substring(0, 57) + "..." : definition;
    }
}
