package io.jdm.common.dumpdir;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Names of the files in a dump directory. Schema and table names are escaped as Dumpling escapes
 * them, so TiDB Lightning, Dumpling's and DM's tools read jdm's files: the bytes that are unsafe in
 * a file name or would break the layout ({@code \x00-\x1f % " * . / : < > ? \ |}, and the
 * {@code -} of {@code -schema}) become {@code %XX}; everything else, multi-byte UTF-8 included, is
 * kept as is. Plain names, the common case, are unchanged, so mydumper's raw names read the same.
 * Dumps by older jdm versions escaped with MySQL's {@code @xxxx} (UTF-16 unit in hex); {@link
 * Escaping#LEGACY_AT} reads them.
 */
public final class DumpFileNames {
    public static final String METADATA = "metadata";
    private static final Pattern DATA = Pattern.compile(
            "^([^.]+)\\.([^.]+)\\.(\\d+)\\.sql(\\.gz|\\.zst)?$");
    private static final Pattern TABLE_SCHEMA = Pattern.compile("^([^.]+)\\.([^.]+)-schema\\.sql(\\.gz|\\.zst)?$");
    private static final Pattern VIEW_SCHEMA = Pattern.compile("^([^.]+)\\.([^.]+)-schema-view\\.sql(\\.gz|\\.zst)?$");
    private static final Pattern DB_SCHEMA = Pattern.compile("^([^.]+)-schema-create\\.sql(\\.gz|\\.zst)?$");
    private static final String UNSAFE = "%\"*./:<>?\\|";
    private static final String SCHEMA_SUFFIX = "-schema";

    private DumpFileNames() {
    }

    /** What a file in a dump directory holds. */
    public enum Kind { DATABASE, TABLE, VIEW, DATA }

    /** How the names in a dump directory are escaped. */
    public enum Escaping {
        /** Dumpling's {@code %XX}, which jdm writes; also reads mydumper's raw names. */
        PERCENT,
        /** Older jdm dumps: MySQL's {@code @xxxx}. */
        LEGACY_AT;

        public String unescape(String fileName) {
            return this == PERCENT ? DumpFileNames.unescape(fileName) : unescapeLegacy(fileName);
        }
    }

    /**
     * A parsed file name.
     *
     * @param table empty for {@link Kind#DATABASE}
     * @param index the chunk number of a data file, 0 otherwise
     * @param compression "", ".gz" or ".zst"
     */
    public record Parsed(Kind kind, String schema, String table, long index, String compression) {
    }

    /** Dumpling's rule: {@code [\x00-\x1f%"*./:<>?\\|]|-(?i:schema)} becomes {@code %XX} of its first byte. */
    public static String escape(String name) {
        StringBuilder sb = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x20 || UNSAFE.indexOf(c) >= 0
                    || (c == '-' && name.regionMatches(true, i, SCHEMA_SUFFIX, 0, SCHEMA_SUFFIX.length()))) {
                sb.append('%').append(String.format("%02X", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** Decodes {@code %XX} (one byte each, the bytes then read as UTF-8); other characters are kept. */
    public static String unescape(String fileName) {
        if (fileName.indexOf('%') < 0) {
            return fileName;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(fileName.length());
        for (int i = 0; i < fileName.length(); i++) {
            char c = fileName.charAt(i);
            int hi = i + 2 < fileName.length() ? Character.digit(fileName.charAt(i + 1), 16) : -1;
            int lo = hi >= 0 ? Character.digit(fileName.charAt(i + 2), 16) : -1;
            if (c == '%' && lo >= 0) {
                bytes.write(hi << 4 | lo);
                i += 2;
            } else {
                int end = Character.isHighSurrogate(c) && i + 1 < fileName.length() ? i + 2 : i + 1;
                bytes.writeBytes(fileName.substring(i, end).getBytes(StandardCharsets.UTF_8));
                i = end - 1;
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** Decodes the {@code @xxxx} of dumps by older jdm versions. */
    public static String unescapeLegacy(String fileName) {
        StringBuilder sb = new StringBuilder(fileName.length());
        for (int i = 0; i < fileName.length(); i++) {
            char c = fileName.charAt(i);
            if (c == '@' && isHex(fileName, i + 1)) {
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
        String n = Long.toString(index);
        return escape(db) + "." + escape(table) + "." + "000000000".substring(Math.min(9, n.length())) + n + ".sql"
                + compression;
    }

    /** Parses a file name of a dump directory written by Dumpling, mydumper or jdm; empty for files jdm does not read. */
    public static Optional<Parsed> parse(String fileName) {
        return parse(fileName, Escaping.PERCENT);
    }

    /** Parses a file name whose schema and table names are escaped as {@code escaping} says. */
    public static Optional<Parsed> parse(String fileName, Escaping escaping) {
        Matcher m = VIEW_SCHEMA.matcher(fileName);
        if (m.matches()) {
            return Optional.of(new Parsed(Kind.VIEW, escaping.unescape(m.group(1)), escaping.unescape(m.group(2)), 0,
                    suffix(m.group(3))));
        }
        m = TABLE_SCHEMA.matcher(fileName);
        if (m.matches()) {
            return Optional.of(new Parsed(Kind.TABLE, escaping.unescape(m.group(1)), escaping.unescape(m.group(2)), 0,
                    suffix(m.group(3))));
        }
        m = DB_SCHEMA.matcher(fileName);
        if (m.matches()) {
            return Optional.of(new Parsed(Kind.DATABASE, escaping.unescape(m.group(1)), "", 0, suffix(m.group(2))));
        }
        m = DATA.matcher(fileName);
        if (m.matches()) {
            return Optional.of(new Parsed(Kind.DATA, escaping.unescape(m.group(1)), escaping.unescape(m.group(2)),
                    Long.parseLong(m.group(3)), suffix(m.group(4))));
        }
        return Optional.empty();
    }

    private static String suffix(String s) {
        return s == null ? "" : s;
    }
}
