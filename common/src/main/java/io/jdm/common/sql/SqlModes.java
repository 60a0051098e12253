package io.jdm.common.sql;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The sql_mode values jdm's sessions run in. Reading the source never depends on the source's
 * mode; writing the target depends on it only where it decided what the source holds:
 * strictness (a value the source refused the target refuses too), and nothing that changes how
 * jdm's own SQL text reads.
 */
public final class SqlModes {
    /**
     * Reading the source (dump): the empty mode, as mydumper sets it. {@code SHOW CREATE} follows
     * the session's mode ({@code ANSI_QUOTES} writes double-quoted names, {@code NO_FIELD_OPTIONS},
     * {@code NO_TABLE_OPTIONS} or {@code ORACLE} drop or rewrite parts of a table) and so do values
     * ({@code PAD_CHAR_TO_FULL_LENGTH} pads CHAR).
     */
    public static final String READ = "";

    /**
     * Writing the target (sync, and a load that does not know the source's mode): strict, so a
     * value the target cannot hold (a narrower column) fails instead of being truncated; explicit 0
     * kept in AUTO_INCREMENT columns; zero and invalid dates the source holds accepted; backslash
     * escapes and backtick names as the dump writes them.
     */
    public static final String REPLAY = "STRICT_TRANS_TABLES,NO_AUTO_VALUE_ON_ZERO,ALLOW_INVALID_DATES,"
            + "NO_ENGINE_SUBSTITUTION";

    /**
     * {@link #REPLAY} without strictness: only for a statement that writes an ENUM's index 0 (the
     * empty "error" value a non-strict source session stores), which strict mode refuses.
     */
    public static final String REPLAY_NON_STRICT = "NO_AUTO_VALUE_ON_ZERO,ALLOW_INVALID_DATES,NO_ENGINE_SUBSTITUTION";

    /** What every replay needs whatever the source's mode: explicit 0 kept, the source's dates, no other engine. */
    private static final List<String> REPLAY_NEEDS = List.of("NO_AUTO_VALUE_ON_ZERO", "ALLOW_INVALID_DATES",
            "NO_ENGINE_SUBSTITUTION");

    /**
     * Modes a replay of rows leaves out of the source's:
     * <ul>
     * <li>how SQL text reads, where jdm's files and statements are written for the default mode:
     * {@code ANSI_QUOTES}, {@code NO_BACKSLASH_ESCAPES}, {@code PIPES_AS_CONCAT}, {@code IGNORE_SPACE},
     * {@code HIGH_NOT_PRECEDENCE}, {@code REAL_AS_FLOAT} (a {@code REAL} in a CREATE TABLE), and
     * MariaDB's {@code EMPTY_STRING_IS_NULL} (the literal {@code ''} read as NULL);
     * <li>what only checks or shapes a query: {@code ONLY_FULL_GROUP_BY} (a view the source's
     * session created without it), {@code PAD_CHAR_TO_FULL_LENGTH};
     * <li>the zero-date checks: the source holds such dates (written before the mode, or by a
     * session without it), and {@code ALLOW_INVALID_DATES} writes them back;
     * <li>the combination modes, each listed beside the modes it stands for: set again, it would
     * bring back what is left out above ({@code TRADITIONAL} the zero-date checks).
     * </ul>
     */
    private static final Set<String> LEFT_OUT_OF_REPLAY = Set.of("ANSI_QUOTES", "NO_BACKSLASH_ESCAPES",
            "PIPES_AS_CONCAT", "IGNORE_SPACE", "HIGH_NOT_PRECEDENCE", "REAL_AS_FLOAT", "EMPTY_STRING_IS_NULL",
            "ONLY_FULL_GROUP_BY", "PAD_CHAR_TO_FULL_LENGTH", "NO_ZERO_DATE", "NO_ZERO_IN_DATE",
            "ANSI", "TRADITIONAL", "ORACLE", "MSSQL", "DB2", "POSTGRESQL", "MAXDB", "MYSQL323", "MYSQL40");

    /** The modes that make a session strict, {@code TRADITIONAL} standing for both. */
    private static final Set<String> STRICT = Set.of("STRICT_TRANS_TABLES", "STRICT_ALL_TABLES", "TRADITIONAL");

    /**
     * sql_mode names a newer server no longer knows (MySQL 8.0 removed them) and that change nothing
     * in what a replayed statement does: NO_AUTO_CREATE_USER acts on GRANT only, the *_OPTIONS modes
     * on what SHOW CREATE prints, and each combination mode (ORACLE, MYSQL40 …) comes with the modes
     * it stands for set beside it. A 5.7 source's default sql_mode has NO_AUTO_CREATE_USER, which an
     * 8.0 target refuses.
     */
    private static final Set<String> INERT_IN_REPLAY = Set.of("NO_AUTO_CREATE_USER", "NO_KEY_OPTIONS",
            "NO_TABLE_OPTIONS", "NO_FIELD_OPTIONS", "POSTGRESQL", "ORACLE", "MSSQL", "DB2", "MAXDB", "MYSQL323",
            "MYSQL40");

    private static final int WRONG_VALUE_FOR_VAR = 1231;

    private SqlModes() {
    }

    /** The server's global sql_mode: the mode its sessions start in, so the one its rows were mostly written in. */
    public static String global(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT @@GLOBAL.sql_mode")) {
            rs.next();
            String mode = rs.getString(1);
            return mode == null ? "" : mode;
        }
    }

    /**
     * The mode that writes back the rows a source in {@code source} holds: the source's modes, its
     * strictness exactly, without {@link #LEFT_OUT_OF_REPLAY}, with {@link #REPLAY_NEEDS}. A strict
     * source's replay refuses what the source would have refused (a value a narrower target
     * column could only truncate); a non-strict source's replay stores what the source stored
     * (a generated column's value clipped to its type).
     */
    public static String replayOf(String source) {
        Set<String> out = new LinkedHashSet<>();
        for (String m : names(source)) {
            if (!LEFT_OUT_OF_REPLAY.contains(m)) {
                out.add(m);
            }
        }
        out.addAll(REPLAY_NEEDS);
        return String.join(",", out);
    }

    /** {@code modes} without strictness: what a statement strict mode refused runs in (an ENUM's index 0). */
    public static String withoutStrictness(String modes) {
        List<String> out = new ArrayList<>();
        for (String m : names(modes)) {
            if (!STRICT.contains(m)) {
                out.add(m);
            }
        }
        return String.join(",", out);
    }

    /** Whether a session in {@code modes} refuses a value it cannot store as given. */
    public static boolean strict(String modes) {
        return names(modes).stream().anyMatch(STRICT::contains);
    }

    /**
     * Sets the session's sql_mode to {@code modes}; where the server refuses it and it has modes
     * {@link #INERT_IN_REPLAY}, sets it without them.
     *
     * @return the mode set, as given or without the inert modes
     * @throws SQLException the server's refusal, when leaving out the inert modes does not help
     */
    public static String set(Statement st, String modes) throws SQLException {
        try {
            st.execute("SET SESSION sql_mode = " + Identifiers.literal(modes));
            return modes;
        } catch (SQLException e) {
            String kept = e.getErrorCode() == WRONG_VALUE_FOR_VAR ? withoutInert(modes) : null;
            if (kept == null) {
                throw e;
            }
            st.execute("SET SESSION sql_mode = " + Identifiers.literal(kept));
            return kept;
        }
    }

    /** {@code modes} without those {@link #INERT_IN_REPLAY}; null when it has none. */
    public static String withoutInert(String modes) {
        List<String> kept = new ArrayList<>();
        boolean dropped = false;
        for (String m : names(modes)) {
            if (INERT_IN_REPLAY.contains(m)) {
                dropped = true;
            } else {
                kept.add(m);
            }
        }
        return dropped ? String.join(",", kept) : null;
    }

    /** The mode names of a sql_mode value, in upper case, without blanks. */
    private static List<String> names(String modes) {
        List<String> out = new ArrayList<>();
        for (String m : modes.split(",")) {
            if (!m.isBlank()) {
                out.add(m.strip().toUpperCase(Locale.ROOT));
            }
        }
        return out;
    }

    /**
     * True when {@code value} is index 0 of an ENUM column: the empty string where {@code ''} is not
     * one of the column's labels (where it is, {@code ''} is a valid label and strict mode takes it).
     */
    public static boolean isEnumErrorValue(TypedColumn column, Object value) {
        return "".equals(value) && "enum".equals(column.dataType()) && !TypedColumn.labels(column.columnType()).contains("");
    }
}
