package io.jdm.sync.ring;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jdm.common.sql.Identifiers;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The session a statement ran in on the source, from its QUERY event: what the target (and the
 * schema tracker) must set before running the same statement so that it means the same thing:
 * how literals and quotes are read (sql_mode, charsets), what a column without a charset gets
 * (collation_server for CREATE DATABASE), what CURRENT_TIMESTAMP and NOW() are (time_zone,
 * timestamp), how AUTO_INCREMENT counts.
 *
 * @param sqlMode the mode names, comma-separated, as {@code @@sql_mode} spells them
 * @param characterSetClient the charset the statement's bytes were sent in on the source; the text
 *        in the change is already decoded from it (see {@link #variables})
 * @param timeZone the session's time zone, or the source's global one where the event carries none
 * @param timestamp the statement's start as {@code SET timestamp} takes it: seconds[.micros]
 * @param explicitDefaultsForTimestamp from the event (MySQL 8.0.22+), else the source's global
 *        value; null when the source has no such variable
 * @param lcTimeNames the locale name, en_US when the event does not say
 * @param defaultCollationForUtf8mb4 MySQL 8's utf8mb4 default, null when not logged
 * @param characterSetCollations MariaDB 11.2+ {@code character_set_collations}, null when not logged
 */
public record SourceSession(String sqlMode, String characterSetClient, String collationConnection,
                            String collationServer, String timeZone, String timestamp, int autoIncrementIncrement,
                            int autoIncrementOffset, boolean foreignKeyChecks, boolean uniqueChecks,
                            Boolean explicitDefaultsForTimestamp, String lcTimeNames,
                            String defaultCollationForUtf8mb4, String characterSetCollations) {

    /**
     * What the statement's text is sent in: the JDBC driver encodes every statement as UTF-8, so the
     * target must read it as utf8mb4. The text was decoded from the source's client charset, and
     * literals still become {@link #collationConnection} strings, as on the source.
     */
    public static final String DRIVER_CHARSET = "utf8mb4";
    /** How a session is kept in the meta schema's tables (shard locks, online DDL), to replay a statement later. */
    private static final ObjectMapper JSON = new ObjectMapper();

    /** This session as JSON, for a table that keeps a statement to replay later. */
    public String json() {
        try {
            return JSON.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A session {@link #json} wrote. */
    public static SourceSession fromJson(String json) throws JsonProcessingException {
        return JSON.readValue(json, SourceSession.class);
    }

    /** The same session with foreign-key checks off: for empty copies whose parents may have none. */
    public SourceSession withoutForeignKeyChecks() {
        return new SourceSession(sqlMode, characterSetClient, collationConnection, collationServer, timeZone,
                timestamp, autoIncrementIncrement, autoIncrementOffset, false, uniqueChecks,
                explicitDefaultsForTimestamp, lcTimeNames, defaultCollationForUtf8mb4, characterSetCollations);
    }

    /** For the DDL parser: double quotes delimit identifiers. */
    public boolean ansiQuotes() {
        return hasMode("ANSI_QUOTES");
    }

    /** For the DDL parser: a backslash in a string literal is an ordinary character. */
    public boolean noBackslashEscapes() {
        return hasMode("NO_BACKSLASH_ESCAPES");
    }

    private boolean hasMode(String mode) {
        return Arrays.asList(sqlMode.toUpperCase(Locale.ROOT).split(",")).contains(mode);
    }

    /**
     * The session variables to set on the target, in order, each to its SQL value. Not set:
     * autocommit (a DDL commits on its own), sql_auto_is_null (SELECT only), collation_database
     * (deprecated; a database's default is its own, and CREATE DATABASE takes collation_server).
     */
    public Map<String, String> variables() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("sql_mode", Identifiers.literal(sqlMode));
        m.put("character_set_client", Identifiers.literal(DRIVER_CHARSET));
        m.put("collation_connection", Identifiers.literal(collationConnection));
        m.put("collation_server", Identifiers.literal(collationServer));
        m.put("time_zone", Identifiers.literal(timeZone));
        m.put("timestamp", timestamp);
        m.put("auto_increment_increment", Integer.toString(autoIncrementIncrement));
        m.put("auto_increment_offset", Integer.toString(autoIncrementOffset));
        m.put("foreign_key_checks", foreignKeyChecks ? "1" : "0");
        m.put("unique_checks", uniqueChecks ? "1" : "0");
        if (explicitDefaultsForTimestamp != null) {
            m.put("explicit_defaults_for_timestamp", explicitDefaultsForTimestamp ? "1" : "0");
        }
        m.put("lc_time_names", Identifiers.literal(lcTimeNames));
        if (defaultCollationForUtf8mb4 != null) {
            m.put("default_collation_for_utf8mb4", Identifiers.literal(defaultCollationForUtf8mb4));
        }
        if (characterSetCollations != null) {
            m.put("character_set_collations", Identifiers.literal(characterSetCollations));
        }
        return m;
    }
}
