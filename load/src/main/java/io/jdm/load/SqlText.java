package io.jdm.load;

import io.jdm.common.sql.SqlDialect;
import io.jdm.common.sql.SqlLexer;
import io.jdm.common.sql.SqlScanner;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/** Turns statement bytes into text for JDBC and tells data statements from session settings. */
final class SqlText {
    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    /**
     * How dump files are read: MySQL's default sql_mode (backslash escapes, {@code "…"} strings,
     * backticked names), as jdm, mydumper and Dumpling write them; every five-digit conditional
     * comment runs ({@code /*!40101 …}), as TiDB and MySQL targets run it, and MariaDB's
     * {@code /*M!} is a comment, as it is to them.
     */
    static final SqlDialect DIALECT = new SqlDialect(false, false, 99_999);
    static final SqlScanner SCANNER = new SqlScanner(DIALECT);
    /** Where a conditional comment must run on every supported target: up to 5.7. */
    private static final SqlScanner UP_TO_5_7 = new SqlScanner(new SqlDialect(false, false, 50_700));

    /** What a statement of a dump file is. */
    enum Kind { DATA, SESSION, OTHER }

    private SqlText() {
    }

    /**
     * Decodes UTF-8. Files written with {@code SET NAMES binary} may hold raw bytes in string
     * literals that are not UTF-8; JDBC can only send Java strings, so such literals are turned
     * into hex literals ({@code X'..'}), which the server stores as exactly those bytes.
     */
    static String decode(byte[] b) {
        return decode(b, null);
    }

    /**
     * {@link #decode(byte[])} for a statement run after {@code SET NAMES charset}: a literal that is
     * not UTF-8 becomes a hex literal with that character set's introducer ({@code _latin1 X'..'}),
     * a string of that character set holding those bytes, as the literal was in the source's
     * session (a bare hex literal is a binary string, which a text column refuses or stores
     * unconverted). Without a known character set, or for {@code binary}, or where the literal has
     * an introducer of its own, the hex literal stays bare.
     */
    static String decode(byte[] b, String charset) {
        return decode(b, 0, b.length, charset);
    }

    /** {@link #decode(byte[], String)} of {@code b[from, to)}, read where it lies. */
    static String decode(byte[] b, int from, int to, String charset) {
        String fast = new String(b, from, to - from, StandardCharsets.UTF_8); // the JDK's intrinsic path
        if (fast.indexOf('\uFFFD') < 0) {
            return fast; // no replacement character: the bytes were valid UTF-8
        }
        if (from != 0 || to != b.length) {
            b = Arrays.copyOfRange(b, from, to);
        }
        CharsetDecoder d = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        try {
            return d.decode(ByteBuffer.wrap(b)).toString();
        } catch (CharacterCodingException e) {
            return new String(hexInvalidLiterals(b, charset), StandardCharsets.UTF_8);
        }
    }

    /** At most this many bytes of a statement are read to tell its kind, when it is {@link Kind#DATA}. */
    private static final int KIND_HEAD = 1024;

    /**
     * The kind of the statement {@code b[from, to)}, from its first {@value #KIND_HEAD} bytes where
     * that tells it is {@link Kind#DATA}: the INSERT that holds a whole data file is not decoded
     * only to be told apart. The head is read byte for byte (ISO-8859-1), so a character cut at its
     * end cannot fail it; what tells a kind (blanks, comments, a version mark, the first word) is
     * ASCII. It counts only if a head 16 bytes shorter tells the same, so the first word was not
     * cut. Any other kind is told from the whole statement.
     */
    static Kind kind(byte[] b, int from, int to) {
        if (to - from > KIND_HEAD
                && kind(new String(b, from, KIND_HEAD, StandardCharsets.ISO_8859_1)) == Kind.DATA
                && kind(new String(b, from, KIND_HEAD - 16, StandardCharsets.ISO_8859_1)) == Kind.DATA) {
            return Kind.DATA;
        }
        return kind(decode(b, from, to, null));
    }

    static Kind kind(String sql) {
        int at = SCANNER.skipBlank(sql, 0, sql.length());
        SqlScanner.Token mark = SCANNER.token(sql, at);
        if (mark != null && mark.kind() == SqlScanner.Kind.VERSION_MARK) {
            at = mark.end(); // a statement the server runs inside a conditional comment is what it holds
        }
        return switch (new SqlCursor(sql, at).peekWord()) {
            case "INSERT", "REPLACE" -> Kind.DATA;
            case "SET" -> Kind.SESSION;
            default -> Kind.OTHER;
        };
    }

    /**
     * True when {@code sql} is only {@code SET NAMES cs [COLLATE co]}, possibly inside a version
     * comment every supported target runs ({@code /*!40101}): a statement that sets the
     * connection's character set completely and nothing else.
     */
    static boolean isSetNames(String sql) {
        if (sql.length() > 200) {
            return false;
        }
        List<int[]> w = UP_TO_5_7.words(sql);
        return (w.size() == 3 || (w.size() == 5 && is(sql, w.get(3), "COLLATE"))) && is(sql, w.get(0), "SET")
                && is(sql, w.get(1), "NAMES") && isName(sql, w.get(2)) && isName(sql, w.get(w.size() - 1));
    }

    /**
     * The character set string literals are read in after the session statement {@code sql}, given
     * {@code current} before it: what a plain {@link #isSetNames} names; null (not known) after any
     * other statement that may change it ({@code SET CHARACTER SET}, {@code character_set_client} or
     * {@code _connection}, a {@code SET NAMES} among other assignments; told coarsely, by its words);
     * else {@code current}.
     */
    static String sessionCharset(String current, String sql) {
        if (isSetNames(sql)) {
            return setNamesCharset(sql);
        }
        String s = sql.toLowerCase(java.util.Locale.ROOT);
        // collation_connection sets character_set_connection too, into which string literals are converted
        return s.contains("names") || s.contains("character") || s.contains("charset") || s.contains("collation")
                ? null : current;
    }

    private static final java.util.regex.Pattern SET_SQL_MODE = java.util.regex.Pattern.compile(
            "(?is)\\s*(?:/\\*!\\d{5})?\\s*SET\\s+(?:SESSION\\s+|@@SESSION\\.|@@)?SQL_MODE\\s*=\\s*'([^'\\\\]*)'\\s*(?:\\*/)?\\s*;?\\s*");

    /**
     * The sql_mode flags a session statement sets, by name in upper case: empty when it does not
     * name sql_mode, null when it sets it other than to one quoted list of names (from a variable,
     * an expression, among other assignments).
     */
    static java.util.Set<String> sqlModeFlags(String sql) {
        if (!namesSqlMode(sql)) {
            return java.util.Set.of();
        }
        java.util.regex.Matcher m = SET_SQL_MODE.matcher(sql);
        if (!m.matches()) {
            return null;
        }
        java.util.Set<String> flags = new java.util.HashSet<>();
        for (String f : m.group(1).split(",")) {
            if (!f.isBlank()) {
                flags.add(f.strip().toUpperCase(java.util.Locale.ROOT));
            }
        }
        return flags;
    }

    /** Whether a session statement may set sql_mode: it names it, told coarsely, by its words. */
    static boolean namesSqlMode(String sql) {
        return sql.toUpperCase(java.util.Locale.ROOT).contains("SQL_MODE");
    }

    /** The character set a {@link #isSetNames} statement names, in lower case. */
    static String setNamesCharset(String sql) {
        int[] w = UP_TO_5_7.words(sql).get(2);
        String name = sql.substring(w[0], w[1]);
        if (name.startsWith("'")) {
            name = name.substring(1, name.length() - 1);
        }
        return name.toLowerCase(java.util.Locale.ROOT);
    }

    /** Whether the word {@code span} of {@code sql} is {@code word}, in any case. */
    static boolean is(String sql, int[] span, String word) {
        return span[1] - span[0] == word.length() && sql.regionMatches(true, span[0], word, 0, word.length());
    }

    /** A bare name of word characters or a single-quoted string: how a charset or collation is written. */
    private static boolean isName(String sql, int[] span) {
        if (sql.charAt(span[0]) == '\'') {
            return true;
        }
        for (int i = span[0]; i < span[1]; i++) {
            char c = sql.charAt(i);
            if (!(Character.isLetterOrDigit(c) || c == '_')) {
                return false;
            }
        }
        return true;
    }

    /** The first words of a statement, for error messages. */
    static String head(String sql) {
        String s = sql.strip();
        s = s.substring(0, Math.min(s.length(), 200)).replaceAll("\\s+", " ");
        return s.length() <= 60 ? s : s.substring(0, 60) + "...";
    }

    static byte[] hexInvalidLiterals(byte[] b) {
        return hexInvalidLiterals(b, null);
    }

    static byte[] hexInvalidLiterals(byte[] b, String charset) {
        String introducer = charset == null || charset.equals("binary") || !charset.matches("[a-z0-9_]+")
                ? null : "_" + charset + " ";
        ByteArrayOutputStream out = new ByteArrayOutputStream(b.length * 2);
        SqlLexer lexer = new SqlLexer(DIALECT, (kind, start, end) -> {
            if (kind == SqlScanner.Kind.STRING) {
                literal(b, (int) start, (int) end, introduced(b, (int) start) ? null : introducer, out);
            } else {
                out.write(b, (int) start, (int) (end - start));
            }
        });
        int i = 0;
        while (i >= 0 && i < b.length) {
            i = lexer.scan(b, i, b.length);
        }
        lexer.end();
        return out.toByteArray();
    }

    /**
     * Whether the literal at {@code start} has a prefix of its own: a word right before its quote
     * ({@code N'..'}, {@code _latin1'..'}) or an introducer word before it ({@code _latin1 '..'}).
     */
    private static boolean introduced(byte[] b, int start) {
        int i = start - 1;
        if (i >= 0 && isWordByte(b[i])) {
            return true;
        }
        while (i >= 0 && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r')) {
            i--;
        }
        int end = i;
        while (i >= 0 && isWordByte(b[i])) {
            i--;
        }
        return end > i && b[i + 1] == '_';
    }

    private static boolean isWordByte(byte c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$';
    }

    /**
     * Copies the literal {@code b[start, end)}, as a hex literal when its value is not UTF-8, after
     * {@code introducer} unless that is null.
     */
    private static void literal(byte[] b, int start, int end, String introducer, ByteArrayOutputStream out) {
        byte q = b[start];
        ByteArrayOutputStream value = new ByteArrayOutputStream();
        int i = start + 1;
        while (i < end) {
            byte c = b[i];
            if (c == '\\' && i + 1 < end) {
                unescape(b[i + 1], value);
                i += 2;
            } else if (c == q && i + 1 < end) { // a doubled quote: the lexer ends the literal at its last quote
                value.write(q);
                i += 2;
            } else if (c != q) {
                value.write(c);
                i++;
            } else {
                i++;
            }
        }
        byte[] v = value.toByteArray();
        if (isUtf8(v)) {
            out.write(b, start, end - start);
        } else {
            if (introducer != null) {
                out.writeBytes(introducer.getBytes(StandardCharsets.US_ASCII));
            }
            out.write('X');
            out.write('\'');
            for (byte x : v) {
                out.write(HEX[(x >> 4) & 0xf]);
                out.write(HEX[x & 0xf]);
            }
            out.write('\'');
        }
    }

    private static void unescape(byte e, ByteArrayOutputStream v) {
        switch (e) {
            case '0' -> v.write(0);
            case 'b' -> v.write(8);
            case 'n' -> v.write('\n');
            case 'r' -> v.write('\r');
            case 't' -> v.write('\t');
            case 'Z' -> v.write(26);
            case '%', '_' -> {
                v.write('\\'); // kept as two characters outside LIKE, as the server does
                v.write(e);
            }
            default -> v.write(e);
        }
    }

    private static boolean isUtf8(byte[] v) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(v));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    /** UTF-8 length of {@code s[from, to)} without encoding it. */
    static long utf8Length(CharSequence s, int from, int to) {
        long n = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n++;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c)) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }
}
