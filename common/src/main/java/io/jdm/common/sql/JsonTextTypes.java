package io.jdm.common.sql;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The values in JSON text as MySQL prints it ({@code SELECT doc}) that MySQL's JSON parser would
 * read back as another value or type, so a dump writes them back with an expression (see
 * {@link JsonDocument}):
 * <ul>
 * <li>what only a DECIMAL prints: an integer beyond 64 bits, or a number with a point whose text
 * is not the double it reads as ({@code 1.50}, {@code 0.00000}, 30 digits), which the parser makes
 * a double;
 * <li>a double the parser would round to a neighbour (see {@link MySqlDoubles#jsonParserReadsExactly});
 * <li>where the source said which strings of the document are strings ({@link #stringsSql}): every
 * other printed string, which is a DATE, TIME, DATETIME, TIMESTAMP or opaque value. Its text says
 * which, but for a DATETIME and a TIMESTAMP, which print alike: both are written as DATETIME, and
 * the dump asks the source whether any was a TIMESTAMP ({@link #datetimePaths}), which no SQL
 * expression writes (the sync refuses it too).
 * </ul>
 * A DECIMAL whose text is also a double's ({@code 1.5}) or an integer's cannot be told apart from
 * the text and is read as the parser reads it: same text, same value.
 */
public final class JsonTextTypes {
    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
    private static final Pattern DATETIME = Pattern.compile("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}\\.\\d{6}");
    private static final Pattern TIME = Pattern.compile("(-?)(\\d{2,3}):(\\d{2}:\\d{2}\\.\\d{6})");
    private static final Pattern OPAQUE = Pattern.compile("base64:type(\\d+):(.*)", Pattern.DOTALL);
    private static final String AS_DATETIME = " AS DATETIME(6))";
    /** MySQL's field type of a binary string, the one opaque value an expression writes ({@code x'…'}). */
    private static final int FIELD_VARCHAR = 15;

    private final String text;
    private final Set<String> strings;
    private final List<JsonDocument.Typed> typed = new ArrayList<>();
    /** Why a value the source says is no string cannot be written back, once one is met. */
    private String fault;

    private JsonTextTypes(String text, Set<String> strings) {
        this.text = text;
        this.strings = strings;
    }

    /**
     * The SQL expression that says which printed strings of JSON column {@code quoted} are strings:
     * NULL when the document's text reads back as an equal document (its only hidden types are the
     * numbers' the text tells), else the paths of its strings ({@code JSON_SEARCH}, {@code []} for
     * none). The text of an opaque value MySQL 5.7 prints with raw line breaks is not JSON, hence
     * {@code JSON_VALID} first there (8.0 escapes them, and skips the test: on a table of JSON
     * documents of 130 bytes the whole expression costs the source about 2 µs a row, the test 1 µs).
     */
    public static String stringsSql(String quoted) {
        String text = "CAST(" + quoted + " AS CHAR)";
        return "CASE WHEN (/*!80000 TRUE OR */ JSON_VALID(" + text + ")) AND " + quoted + " = CAST(" + text
                + " AS JSON) THEN NULL ELSE IFNULL(JSON_SEARCH(" + quoted + ", 'all', '%'), '[]') END";
    }

    /** The document with its certain DECIMALs listed; none listed when {@code text} is not JSON as MySQL prints it. */
    public static JsonDocument of(String text) {
        return of(text, null);
    }

    /**
     * The document with its certain DECIMALs listed and, when {@code strings} is the answer of
     * {@link #stringsSql} for it (null: none needed), every printed string that is not a string.
     *
     * @throws IllegalArgumentException when a value the source says is no string prints as no
     *                                  value MySQL types so
     */
    public static JsonDocument of(String text, String strings) {
        JsonTextTypes r = new JsonTextTypes(text, strings == null ? null : paths(strings));
        try {
            JsonTextWalker.walk(text, new JsonTextWalker.Scalars() {
                @Override
                public void number(CharSequence path, int from, int to) {
                    r.number(path, text.substring(from, to));
                }

                @Override
                public void string(CharSequence path, int from, int to) {
                    if (r.strings != null && !r.strings.contains(path.toString())) {
                        r.typedString(path.toString(), text.substring(from, to));
                    }
                }
            });
        } catch (RuntimeException notJson) { // or a number no MySQL type prints ({@code 1-2})
            if (strings != null) {
                throw new IllegalArgumentException("cannot read a JSON document that holds values of types its text"
                        + " does not show: " + notJson.getMessage());
            }
            return new JsonDocument(text, List.of());
        }
        if (r.fault != null) {
            throw new IllegalArgumentException(r.fault);
        }
        return new JsonDocument(text, r.typed);
    }

    /** The paths of {@code doc}'s values written as DATETIME, which the source may hold as TIMESTAMPs. */
    public static List<String> datetimePaths(JsonDocument doc) {
        return doc.typed().stream().filter(t -> t.expression() != null && t.expression().endsWith(AS_DATETIME))
                .map(JsonDocument.Typed::path).toList();
    }

    /**
     * The hours of a TIME to write into JSON so that MySQL prints {@code hours} back: MySQL 5.7 and
     * 8.0 store a TIME of 32 hours or more in JSON as {@code (h / 32) * 24 + h % 32} hours (838:59:59
     * becomes 630:59:59, 32:00:00 becomes 24:00:00: its hours go through a datetime's 5-bit hour field
     * into the day).
     */
    public static int timeHoursWritten(int hours) {
        return hours / 24 * 32 + hours % 24;
    }

    /** A value whose type no SQL expression writes into a JSON column, and what to do about it. */
    public static JsonDocument.Typed refused(CharSequence path, String what, String remedy) {
        return new JsonDocument.Typed(path.toString(), null, "the JSON value at " + path + " is a " + what
                + ", which no SQL expression writes into a JSON column with that type; " + remedy
                + " or leave the table out of the task");
    }

    /** The MySQL paths a {@code JSON_SEARCH} answer lists, each as {@link JsonTextWalker} spells it. */
    private static Set<String> paths(String answer) {
        Set<String> out = new HashSet<>();
        JsonTextWalker.walk(answer, new JsonTextWalker.Scalars() {
            @Override
            public void number(CharSequence path, int from, int to) {
                throw new IllegalArgumentException("a path list holds a number");
            }

            @Override
            public void string(CharSequence path, int from, int to) {
                out.add(walkerPath(unescape(answer.substring(from, to))));
            }
        });
        return out;
    }

    /** A JSON string's contents without its escapes (a path's only escapes are {@code \"} and {@code \\}, and control characters). */
    private static String unescape(String s) {
        if (s.indexOf('\\') < 0) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\' || i + 1 == s.length()) {
                sb.append(c);
                continue;
            }
            char e = s.charAt(++i);
            switch (e) {
                case 'n' -> sb.append('\n');
                case 't' -> sb.append('\t');
                case 'r' -> sb.append('\r');
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'u' -> {
                    sb.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
                    i += 4;
                }
                default -> sb.append(e);
            }
        }
        return sb.toString();
    }

    /** {@code $.a[1]."b c"} as the walker spells it: every member name quoted ({@code $."a"[1]."b c"}). */
    static String walkerPath(String path) {
        StringBuilder sb = new StringBuilder("$");
        int i = 1;
        while (i < path.length()) {
            char c = path.charAt(i);
            if (c == '[') {
                int end = path.indexOf(']', i);
                sb.append(path, i, end + 1);
                i = end + 1;
            } else if (c == '.' && i + 1 < path.length() && path.charAt(i + 1) == '"') {
                int j = i + 2;
                while (path.charAt(j) != '"') {
                    j += path.charAt(j) == '\\' ? 2 : 1;
                }
                sb.append(path, i, j + 1);
                i = j + 1;
            } else if (c == '.') {
                int j = i + 1;
                while (j < path.length() && path.charAt(j) != '.' && path.charAt(j) != '[') {
                    j++;
                }
                sb.append(".\"").append(path, i + 1, j).append('"');
                i = j;
            } else {
                throw new IllegalArgumentException("not a MySQL path: " + path);
            }
        }
        return sb.toString();
    }

    private void number(CharSequence path, String t) {
        boolean integer = t.indexOf('.') < 0 && t.indexOf('e') < 0 && t.indexOf('E') < 0;
        if (t.indexOf('e') >= 0 || t.indexOf('E') >= 0
                || !integer && MySqlDoubles.json(Double.parseDouble(t), true).equals(t)) {
            // a double (MySQL prints no DECIMAL with an exponent)
            if (!MySqlDoubles.jsonParserReadsExactly(t.toLowerCase(java.util.Locale.ROOT))) {
                typed.add(new JsonDocument.Typed(path.toString(), MySqlDoubles.sqlLiteral(t), null));
            }
            return;
        }
        BigDecimal d = new BigDecimal(t);
        if (integer && d.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) >= 0
                && d.compareTo(new BigDecimal("18446744073709551615")) <= 0) {
            return;
        }
        if (d.scale() > 30) {
            return; // no DECIMAL has that many decimals: not MySQL's text of one
        }
        int scale = Math.max(0, d.scale());
        int precision = Math.min(65, Math.max(1, Math.max(d.precision(), scale)));
        typed.add(new JsonDocument.Typed(path.toString(), "CAST('" + t + "' AS DECIMAL(" + precision + "," + scale
                + "))", null));
    }

    /** A printed string at {@code path} the source holds as another type: its contents {@code t}, escapes as printed. */
    private void typedString(String path, String t) {
        var time = TIME.matcher(t);
        var opaque = OPAQUE.matcher(t);
        if (DATE.matcher(t).matches()) {
            typed.add(new JsonDocument.Typed(path, "CAST('" + t + "' AS DATE)", null, t));
        } else if (DATETIME.matcher(t).matches()) {
            typed.add(new JsonDocument.Typed(path, "CAST('" + t + "'" + AS_DATETIME, null, t));
        } else if (time.matches()) {
            int hours = timeHoursWritten(Integer.parseInt(time.group(2)));
            typed.add(new JsonDocument.Typed(path, "CAST('" + time.group(1) + (hours < 10 ? "0" : "") + hours + ":"
                    + time.group(3) + "' AS TIME(6))", null, t));
        } else if (opaque.matches()) {
            int fieldType = Integer.parseInt(opaque.group(1));
            // 8.0 prints the base64's line breaks as \n, 5.7 as they are
            String value = t.replace("\\n", "\n");
            byte[] data = Base64.getMimeDecoder().decode(value.substring(value.indexOf(':', 11) + 1));
            typed.add(fieldType == FIELD_VARCHAR
                    ? new JsonDocument.Typed(path, "x'" + HexFormat.of().formatHex(data) + "'", null, value)
                    : refused(path, "binary value of MySQL field type " + fieldType + " (\"base64:type"
                    + fieldType + ":…\")", "store it as a string on the source (TO_BASE64)"));
        } else if (fault == null) {
            fault = "the JSON value at " + path + " prints as \"" + t + "\" and is no string, nor any value"
                    + " MySQL prints so";
        }
    }
}
