package io.jdm.sync.reader;

import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.position.Flavor;
import io.jdm.sync.ring.SourceSession;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * What the source's QUERY events refer to by number, read once at start: collation ids → names
 * and charsets (information_schema), charsets' bytes per character, the flavour and version (for
 * sql_mode bits and the DDL grammar) and the global session defaults that apply where an event does not carry a variable.
 * Turns an event's {@link StatusVars} into a {@link SourceSession}. Reader thread only.
 */
final class SourceCatalog {
    record Collation(String name, String charset) {
    }

    private final ConnectionSpec spec;
    private final Flavor flavor;
    private final Map<Integer, Collation> collations;
    private final Map<String, Integer> maxBytes;
    private final Map<String, String> globals;
    private final Map<Integer, String> locales = new HashMap<>();
    private final DdlGrammar grammar;

    SourceCatalog(ConnectionSpec spec, Flavor flavor, Map<Integer, Collation> collations,
                  Map<String, Integer> maxBytes, Map<String, String> globals, Map<Integer, String> knownLocales) {
        this.spec = spec;
        this.flavor = flavor;
        this.collations = collations;
        this.maxBytes = maxBytes;
        this.globals = globals;
        locales.put(0, "en_US");
        locales.putAll(knownLocales);
        this.grammar = DdlGrammar.of(flavor, globals.get("version"));
    }

    static SourceCatalog read(ConnectionSpec spec) {
        try (Connection c = DataSources.connect(spec); Statement st = c.createStatement()) {
            Flavor flavor = Flavor.detect(c);
            Map<Integer, Collation> collations = new HashMap<>();
            try (ResultSet rs = st.executeQuery("SELECT ID, COLLATION_NAME, CHARACTER_SET_NAME "
                    + "FROM information_schema.COLLATIONS WHERE ID IS NOT NULL")) {
                while (rs.next()) {
                    collations.put(rs.getInt(1), new Collation(rs.getString(2), rs.getString(3)));
                }
            }
            if (flavor == Flavor.MARIADB) {
                // 10.10+: collations such as utf8mb4_uca1400_ai_ci have their ids only here
                try (ResultSet rs = st.executeQuery("SELECT ID, FULL_COLLATION_NAME, CHARACTER_SET_NAME "
                        + "FROM information_schema.COLLATION_CHARACTER_SET_APPLICABILITY WHERE ID IS NOT NULL")) {
                    while (rs.next()) {
                        collations.putIfAbsent(rs.getInt(1), new Collation(rs.getString(2), rs.getString(3)));
                    }
                } catch (SQLException older) {
                    // before 10.10 the table has no ID column, and COLLATIONS lists every id
                }
            }
            Map<String, Integer> maxBytes = new HashMap<>();
            try (ResultSet rs = st.executeQuery("SELECT CHARACTER_SET_NAME, MAXLEN FROM "
                    + "information_schema.CHARACTER_SETS")) {
                while (rs.next()) {
                    maxBytes.put(rs.getString(1), rs.getInt(2));
                }
            }
            Map<String, String> globals = new HashMap<>();
            try (ResultSet rs = st.executeQuery("SELECT @@GLOBAL.sql_mode, @@GLOBAL.character_set_client, "
                    + "@@GLOBAL.collation_connection, @@GLOBAL.collation_server, @@GLOBAL.time_zone, "
                    + "TIMEDIFF(NOW(), UTC_TIMESTAMP())")) {
                rs.next();
                globals.put("sql_mode", rs.getString(1));
                globals.put("character_set_client", rs.getString(2));
                globals.put("collation_connection", rs.getString(3));
                globals.put("collation_server", rs.getString(4));
                // SYSTEM means the source host's zone, known here only as its offset now: a DDL logged
                // across a DST change from this start gets this offset, one hour off. Set the source's
                // time_zone to a named zone to avoid it.
                String system = offset(rs.getString(6));
                String tz = rs.getString(5);
                globals.put("system_time_zone", system);
                globals.put("time_zone", tz.equalsIgnoreCase("SYSTEM") ? system : tz);
            }
            try (ResultSet rs = st.executeQuery("SELECT VERSION()")) {
                rs.next();
                globals.put("version", rs.getString(1));
            }
            try (ResultSet rs = st.executeQuery("SELECT @@GLOBAL.explicit_defaults_for_timestamp")) {
                rs.next();
                globals.put("explicit_defaults_for_timestamp", rs.getString(1));
            } catch (SQLException none) {
                // a server without the variable: nothing to carry
            }
            return new SourceCatalog(spec, flavor, collations, maxBytes, globals, Map.of());
        } catch (SQLException e) {
            throw ErrorClassifier.wrap("sync: cannot read the collations and session defaults of the source "
                    + spec.address(), e);
        }
    }

    /** "-05:30:00" → "-05:30". */
    static String offset(String timediff) {
        String t = timediff.startsWith("-") ? timediff : "+" + timediff;
        return t.substring(0, t.lastIndexOf(':'));
    }

    Flavor flavor() {
        return flavor;
    }

    /** The grammar the source's DDL is read with: its flavour's, as its version reads a statement. */
    DdlGrammar grammar() {
        return grammar;
    }

    /** MySQL 5.7 prints JSON a little differently from 8.0 (integral doubles without {@code .0}). */
    boolean printsJsonAs57() {
        String v = globals.get("version");
        return flavor == Flavor.MYSQL && v != null && v.startsWith("5.");
    }

    /** The name of a collation id, or null when the source has no such collation. */
    Collation collation(int id) {
        return collations.get(id);
    }

    /** The most bytes one character of a charset takes, or 0 when unknown. */
    int maxBytes(String charset) {
        return maxBytes.getOrDefault(charset, 0);
    }

    /**
     * The session of one QUERY event.
     *
     * @param headerMillis the event header's timestamp (whole seconds, in millis)
     * @param where the event's position, for messages
     */
    SourceSession session(StatusVars v, long headerMillis, String where) {
        if (v.unknownCode >= 0) {
            throw new FatalException("sync: the QUERY event at " + where + " carries status variable code "
                    + v.unknownCode + " (at byte " + v.unknownAt + " of its block), which this version cannot "
                    + "read, so the session the statement ran in is unknown; upgrade jdm, or skip the statement "
                    + "with a filter rule and restart the task");
        }
        String sqlMode;
        try {
            sqlMode = v.sqlMode == null ? globals.get("sql_mode") : SqlModeBits.names(v.sqlMode, flavor);
        } catch (IllegalArgumentException e) {
            throw new FatalException("sync: the QUERY event at " + where + ": " + e.getMessage()
                    + "; the statement cannot be replayed in its session: skip it with a filter rule and restart "
                    + "the task");
        }
        long flags2 = v.flags2 == null ? 0 : v.flags2;
        long seconds = headerMillis / 1000;
        String timestamp = v.microseconds == null ? Long.toString(seconds)
                : seconds + "." + String.format("%06d", v.microseconds);
        String client = v.clientCharset == null ? globals.get("character_set_client")
                : name(v.clientCharset, where).charset();
        return new SourceSession(sqlMode, client,
                v.collationConnection == null ? globals.get("collation_connection")
                        : name(v.collationConnection, where).name(),
                v.collationServer == null ? globals.get("collation_server") : name(v.collationServer, where).name(),
                timeZone(v.timeZone), timestamp,
                v.autoIncrementIncrement == null ? 1 : v.autoIncrementIncrement,
                v.autoIncrementOffset == null ? 1 : v.autoIncrementOffset,
                (flags2 & StatusVars.OPTION_NO_FOREIGN_KEY_CHECKS) == 0,
                (flags2 & StatusVars.OPTION_RELAXED_UNIQUE_CHECKS) == 0,
                v.explicitDefaultsForTimestamp != null ? v.explicitDefaultsForTimestamp : explicitDefaults(),
                v.lcTimeNames == null ? "en_US" : locale(v.lcTimeNames, where),
                v.defaultCollationForUtf8mb4 == null ? null : name(v.defaultCollationForUtf8mb4, where).name(),
                characterSetCollations(v.characterSetCollations, where));
    }

    /**
     * Where the event does not say (MariaDB, MySQL before 8.0.22): the source's global value, which
     * a session rarely changes; null when the source has no such variable.
     */
    private Boolean explicitDefaults() {
        String v = globals.get("explicit_defaults_for_timestamp");
        return v == null ? null : v.equals("1") || v.equalsIgnoreCase("ON");
    }

    /** The event's zone, or the source's global one; SYSTEM (the source host's zone) as its offset. */
    private String timeZone(String logged) {
        if (logged == null) {
            return globals.get("time_zone");
        }
        return logged.equalsIgnoreCase("SYSTEM") ? globals.get("system_time_zone") : logged;
    }

    /** The statement's text: its bytes in the charset the client sent them in. */
    static String text(byte[] sql, SourceSession s) {
        return new String(sql, ValueConverter.charset(s.characterSetClient()));
    }

    /**
     * Stops the task for a statement whose text, sent as UTF-8, would not mean what its bytes
     * meant on the source: bytes its client's charset has no character for (an ascii client's
     * byte above 127), or, from a client in another charset than
     * UTF-8, non-ASCII bytes with a charset introducer (whose literal's bytes are taken as they come).
     */
    static void checkReplayable(byte[] sql, SourceSession s, String where) {
        String text = text(sql, s);
        if (Arrays.equals(text.getBytes(StandardCharsets.UTF_8), sql)) {
            return;
        }
        try {
            ValueConverter.charset(s.characterSetClient()).newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(sql));
        } catch (CharacterCodingException e) {
            throw new FatalException("sync: the statement at " + where + " is not valid " + s.characterSetClient()
                    + " text, the charset its client declared, so it cannot be sent to the target as it was "
                    + "written; run it on the target by hand, skip it with a filter rule and restart the task");
        }
        int at = Introducers.find(text, s.noBackslashEscapes());
        if (at >= 0) {
            String head = text.substring(at, Math.min(text.length(), at + 30)).replaceAll("\\s+", " ");
            throw new FatalException("sync: the statement at " + where + " was sent in " + s.characterSetClient()
                    + " with non-ASCII bytes and a charset introducer (" + head + "…), whose bytes the target "
                    + "would read differently; run it on the target by hand, skip it with a filter rule and "
                    + "restart the task");
        }
    }

    /**
     * The statement's text before its session is resolved (which may stop the task): decoded the
     * same way where the client's collation is known, as the source's default client charset where
     * the event has none, else as UTF-8 only to be parsed (a kept statement then fails to resolve).
     */
    String text(byte[] sql, StatusVars v) {
        Collation c = v.clientCharset == null ? null : collations.get(v.clientCharset);
        String charset = v.clientCharset == null ? globals.get("character_set_client")
                : c == null ? "utf8mb4" : c.charset();
        return new String(sql, ValueConverter.charset(charset));
    }

    private Collation name(int id, String where) {
        Collation c = collations.get(id);
        if (c == null) {
            throw new FatalException("sync: the QUERY event at " + where + " names collation id " + id
                    + ", which the source " + spec.address() + " does not list in information_schema; restart "
                    + "the task (the list is read at start)");
        }
        return c;
    }

    private String characterSetCollations(int[] pairs, String where) {
        if (pairs == null) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            sb.append(sb.length() == 0 ? "" : ",").append(name(pairs[i], where).charset()).append('=')
                    .append(name(pairs[i + 1], where).name());
        }
        return sb.toString();
    }

    /** lc_time_names by number: both servers take the number in SET and give the name back. */
    private String locale(int id, String where) {
        String name = locales.get(id);
        if (name == null) {
            try (Connection c = DataSources.connect(spec); Statement st = c.createStatement()) {
                st.execute("SET SESSION lc_time_names = " + id);
                try (ResultSet rs = st.executeQuery("SELECT @@SESSION.lc_time_names")) {
                    rs.next();
                    name = rs.getString(1);
                }
            } catch (SQLException e) {
                if (ErrorClassifier.isRetriable(e)) {
                    throw ErrorClassifier.wrap("sync: cannot reach the source " + spec.address(), e);
                }
                throw new FatalException("sync: the QUERY event at " + where + " names lc_time_names number " + id
                        + ", which the source " + spec.address() + " does not know: " + ErrorClassifier.oneLine(e),
                        e);
            }
            locales.put(id, name);
        }
        return name;
    }
}
