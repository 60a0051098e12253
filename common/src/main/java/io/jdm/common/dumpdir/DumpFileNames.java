package io.jdm.common.dumpdir;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Names of the files in a dump directory. Schema and table names are escaped so that any name
 * (dots, slashes, backticks, non-ASCII) maps to one safe file name and back: characters outside
 * {@code [A-Za-z0-9_$-]} become {@code @xxxx} (four hex digits of the UTF-16 unit), as MySQL's own
 * table-name-to-file-name mapping does. Plain names, the common case, are unchanged, so
 * mydumper's and Dumpling's files read the same way.
 */
public final class DumpFileNames {
    public static final String METADATA = "metadata";
    private static final Pattern DATA = Pattern.compile(
            "^([^.]+)\\.([^.]+)\\.(\\d+)\\.sql(\\.gz|\\.zst)?$");
    private static final Pattern TABLE_SCHEMA = Pattern.compile("^([^.]+)\\.([^.]+)-schema\\.sql(\\.gz|\\.zst)?$");
    private static final Pattern VIEW_SCHEMA = Pattern.compile("^([^.]+)\\.([^.]+)-schema-view\\.sql(\\.gz|\\.zst)?$");
    private static final Pattern DB_SCHEMA = Pattern.compile("^([^.]+)-schema-create\\.sql(\\.gz|\\.zst)?$");

    private DumpFileNames() {
    }

    /** What a file in a dump directory holds. */
    public enum Kind { DATABASE, TABLE, VIEW, DATA }

    /**
     * A parsed file name.
     *
     * @param table empty for {@link Kind#DATABASE}
     * @param index the chunk number of a data file, 0 otherwise
     * @param compression "", ".gz" or ".zst"
     */
    public record Parsed(Kind kind, String schema, String table, long index, String compression) {
    }

    public static String escape(String name) {
        StringBuilder sb = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$'
                    || c == '-') {
                sb.append(c);
            } else {
                sb.append('@').append(String.format("%04x", (int) c));
            }
        }
        return sb.toString();
    }

    public static String unescape(String fileName) {
        StringBuilder sb = new StringBuilder(fileName.length());
        for (int i = 0; i < fileName.length(); i++) {
            char c = fileName.charAt(i);
            if (c == '@' && i + 4 < fileName.length() + 0 && isHex(fileName, i + 1)) {
                sb.append((char) Integer.parseInt(fileName.substring(i + 1, i + 5), 16));
                i += 4;
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    private static boolean isHex(String s, int from) {
        if (from + 4 > s.length()) {
            return false;
        }
        for (int i = from; i < from + 4; i++) {
            if (Character.digit(s.charAt(i), 16) < 0) {
                return false;
            }
        }
        return true;
    }

    public static String databaseSchema(String db) {
        return escape(db) + "-schema-create.sql";
    }

    public static String tableSchema(String db, String table) {
        return escape(db) + "." + escape(table) + "-schema.sql";
    }

    public static String viewSchema(String db, String view) {
        return escape(db) + "." + escape(view) + "-schema-view.sql";
    }

    /** {@code db.tbl.000000001.sql} plus the compression suffix ("", ".gz", ".zst"). */
    public static String dataFile(String db, String table, long index, String compression) {
        return escape(db) + "." + escape(table) + "." + String.format("%09d", index) + ".sql" + compression;
    }

    /** Parses a file name of a dump directory; empty for files jdm does not read. */
    public static Optional<Parsed> parse(String fileName) {
        Matcher m = VIEW_SCHEMA.matcher(fileName);
        if (m.matches()) {
            return Optional.of(new Parsed(Kind.VIEW, unescape(m.group(1)), unescape(m.group(2)), 0, suffix(m.group(3))));
        }
        m = TABLE_SCHEMA.matcher(fileName);
        if (m.matches()) {
            return Optional.of(new Parsed(Kind.TABLE, unescape(m.group(1)), unescape(m.group(2)), 0, suffix(m.group(3))));
        }
        m = DB_SCHEMA.matcher(fileName);
        if (m.matches()) {
            return Optional.of(new Parsed(Kind.DATABASE, unescape(m.group(1)), "", 0, suffix(m.group(2))));
        }
        m = DATA.matcher(fileName);
        if (m.matches()) {
            return Optional.of(new Parsed(Kind.DATA, unescape(m.group(1)), unescape(m.group(2)),
                    Long.parseLong(m.group(3)), suffix(m.group(4))));
        }
        return Optional.empty();
    }

    private static String suffix(String s) {
        return s == null ? "" : s;
    }
}
