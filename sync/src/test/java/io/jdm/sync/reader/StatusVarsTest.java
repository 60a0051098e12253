package io.jdm.sync.reader;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import io.jdm.common.error.FatalException;
import io.jdm.common.position.Flavor;
import io.jdm.sync.ring.SourceSession;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** QUERY status variables: events captured from MariaDB 11.4, and hand-built blocks for MySQL's codes. */
class StatusVarsTest {
    private static final int HEADER = 19;

    private static Map<String, byte[]> captured() throws IOException {
        Map<String, byte[]> m = new HashMap<>();
        try (InputStream in = StatusVarsTest.class.getResourceAsStream("/binlog/mariadb-11.4-query-events.txt")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.US_ASCII).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    String[] kv = line.trim().split(" ");
                    m.put(kv[0], HexFormat.of().parseHex(kv[1]));
                }
            }
        }
        return m;
    }

    private static QueryEvent event(byte[] whole) throws IOException {
        return new QueryEventDeserializer().deserialize(
                new ByteArrayInputStream(Arrays.copyOfRange(whole, HEADER, whole.length)));
    }

    private static long headerMillis(byte[] whole) {
        long seconds = (whole[0] & 0xFFL) | (whole[1] & 0xFFL) << 8 | (whole[2] & 0xFFL) << 16
                | (whole[3] & 0xFFL) << 24;
        return seconds * 1000;
    }

    private static SourceCatalog catalog(Flavor flavor) {
        Map<Integer, SourceCatalog.Collation> c = new HashMap<>();
        c.put(8, new SourceCatalog.Collation("latin1_swedish_ci", "latin1"));
        c.put(31, new SourceCatalog.Collation("latin1_german2_ci", "latin1"));
        c.put(5, new SourceCatalog.Collation("latin1_german1_ci", "latin1"));
        c.put(45, new SourceCatalog.Collation("utf8mb4_general_ci", "utf8mb4"));
        c.put(255, new SourceCatalog.Collation("utf8mb4_0900_ai_ci", "utf8mb4"));
        c.put(2345, new SourceCatalog.Collation("utf8mb4_uca1400_ai_ci", "utf8mb4"));
        return new SourceCatalog(null, flavor, c, Map.of("latin1", 1, "utf8mb4", 4),
                Map.of("sql_mode", "STRICT_TRANS_TABLES", "character_set_client", "utf8mb4", "collation_connection",
                        "utf8mb4_general_ci", "collation_server", "utf8mb4_general_ci", "time_zone", "+00:00",
                        "system_time_zone", "-03:30"), Map.of(5, "fr_FR"));
    }

    @Test
    void capturedLatin1ClientStatementCarriesItsSession() throws IOException {
        byte[] whole = captured().get("latin1-create");
        QueryEvent e = event(whole);
        StatusVars v = e.status();
        assertEquals(-1, v.unknownCode);
        assertEquals("capture_q", e.getDatabase());
        assertNull(v.microseconds, "the statement did not use the fraction of its start time");
        SourceSession s = catalog(Flavor.MARIADB).session(v, headerMillis(whole), "mysql-bin.000001:1203");
        assertEquals("ANSI_QUOTES,NO_BACKSLASH_ESCAPES,STRICT_ALL_TABLES,NO_ENGINE_SUBSTITUTION,"
                + "TIME_ROUND_FRACTIONAL", s.sqlMode());
        assertTrue(s.ansiQuotes());
        assertTrue(s.noBackslashEscapes());
        assertEquals("latin1", s.characterSetClient());
        assertEquals("latin1_swedish_ci", s.collationConnection());
        assertEquals("latin1_german1_ci", s.collationServer());
        assertNull(v.timeZone, "MariaDB logs the zone only for a statement that used it");
        assertEquals("+00:00", s.timeZone());
        assertEquals("1700000000", s.timestamp());
        assertEquals(3, s.autoIncrementIncrement());
        assertEquals(2, s.autoIncrementOffset());
        assertEquals(false, s.foreignKeyChecks());
        assertEquals(false, s.uniqueChecks());
        assertEquals(5, v.lcTimeNames);
        assertEquals("fr_FR", s.lcTimeNames());
        assertEquals("CREATE TABLE e (id INT PRIMARY KEY, e ENUM('café','naïve'), d DATETIME DEFAULT NOW())",
                SourceCatalog.text(e.sqlBytes(), s));
    }

    @Test
    void capturedStatementWithTheServerDefaults() throws IOException {
        QueryEvent e = event(captured().get("default-alter"));
        StatusVars v = e.status();
        assertEquals(-1, v.unknownCode);
        assertEquals("", e.getDatabase());
        SourceSession s = catalog(Flavor.MARIADB).session(v, 1_800_000_000_000L, "x");
        assertEquals("utf8mb4", s.characterSetClient());
        assertEquals(true, s.foreignKeyChecks());
        assertEquals(1, s.autoIncrementIncrement());
        assertEquals("en_US", s.lcTimeNames());
        assertEquals("-03:30", s.timeZone(), "SYSTEM in the event: the source host's offset");
        assertEquals("ALTER TABLE capture_q.e ADD x INT", SourceCatalog.text(e.sqlBytes(), s));
    }

    /** MySQL 8's codes, built by hand in the order the server writes them. */
    @Test
    void mysqlCodes() {
        byte[] block = bytes(
                0, 0, 0, 0, 0x04, // flags2: NO_FOREIGN_KEY_CHECKS
                1, 0, 0, 0, 0x40, 1, 0, 0, 0, // sql_mode: NO_ENGINE_SUBSTITUTION (bit 30) | TIME_TRUNCATE_FRACTIONAL
                6, 3, 's', 't', 'd', // catalog
                4, 45, 0, 45, 0, 255, 0, // charsets
                5, 6, '+', '0', '2', ':', '0', '0', // time zone
                11, 4, 'r', 'o', 'o', 't', 9, 'l', 'o', 'c', 'a', 'l', 'h', 'o', 's', 't', // invoker
                12, 2, 'a', 0, 'b', 0, // updated db names
                13, 0x40, (byte) 0xE2, 0x01, // microseconds: 123456
                16, 1, // explicit_defaults_for_timestamp
                17, 1, 0, 0, 0, 0, 0, 0, 0, // ddl logged with xid
                18, (byte) 0xFF, 0, // default collation for utf8mb4
                19, 0, 20, 0); // sql_require_primary_key, default_table_encryption
        StatusVars v = StatusVars.decode(block, 0, block.length);
        assertEquals(-1, v.unknownCode);
        SourceSession s = catalog(Flavor.MYSQL).session(v, 1_700_000_000_000L, "x");
        assertEquals("NO_ENGINE_SUBSTITUTION,TIME_TRUNCATE_FRACTIONAL", s.sqlMode());
        assertEquals(false, s.foreignKeyChecks());
        assertEquals("utf8mb4_0900_ai_ci", s.collationServer());
        assertEquals("+02:00", s.timeZone());
        assertEquals("1700000000.123456", s.timestamp());
        assertEquals(true, s.explicitDefaultsForTimestamp());
        assertEquals("utf8mb4_0900_ai_ci", s.defaultCollationForUtf8mb4());
    }

    @Test
    void mariadbCodesWithLengthsThatDependOnTheirValue() {
        byte[] block = bytes(
                130, 4, 1, 2, 3, 4, 5, 6, 7, 8, // flags3 with COMMIT_ALTER: an 8-byte sequence follows
                131, 1, 45, 0, 0x29, 0x09, // character_set_collations: utf8mb4=uca1400
                128, 1, 0, 0, // hrnow
                129, 1, 2, 3, 4, 5, 6, 7, 8, // xid
                8, 45, 0);
        StatusVars v = StatusVars.decode(block, 0, block.length);
        assertEquals(-1, v.unknownCode);
        assertEquals(45, v.collationDatabase);
        assertArrayEquals(new int[] {45, 2345}, v.characterSetCollations);
        assertEquals("utf8mb4=utf8mb4_uca1400_ai_ci",
                catalog(Flavor.MARIADB).session(v, 0, "x").characterSetCollations());
        StatusVars plain = StatusVars.decode(bytes(130, 1, 8, 45, 0), 0, 5);
        assertEquals(45, plain.collationDatabase);
    }

    @Test
    void anUnknownCodeStopsWithItsCodeAndPosition() {
        StatusVars v = StatusVars.decode(bytes(8, 45, 0, 77, 1, 2, 3), 0, 7);
        assertEquals(77, v.unknownCode);
        assertEquals(3, v.unknownAt);
        FatalException e = assertThrows(FatalException.class,
                () -> catalog(Flavor.MYSQL).session(v, 0, "mysql-bin.000003:4567"));
        assertTrue(e.getMessage().contains("code 77") && e.getMessage().contains("mysql-bin.000003:4567"),
                e.getMessage());
    }

    @Test
    void aBitWithoutANameOnTheSourcesFlavourStops() {
        assertEquals("IGNORE_BAD_TABLE_OPTIONS", SqlModeBits.names(1L << 4, Flavor.MARIADB));
        assertThrows(IllegalArgumentException.class, () -> SqlModeBits.names(1L << 4, Flavor.MYSQL));
        assertEquals("EMPTY_STRING_IS_NULL", SqlModeBits.names(1L << 32, Flavor.MARIADB));
        assertEquals("TIME_TRUNCATE_FRACTIONAL", SqlModeBits.names(1L << 32, Flavor.MYSQL));
        assertThrows(IllegalArgumentException.class, () -> SqlModeBits.names(1L << 40, Flavor.MARIADB));
    }

    @Test
    void aValueCutShortIsACorruptBlock() {
        assertThrows(IllegalArgumentException.class, () -> StatusVars.decode(bytes(4, 45, 0, 45), 0, 4));
        assertNull(StatusVars.decode(new byte[0], 0, 0).sqlMode);
    }

    private static byte[] bytes(int... v) {
        byte[] b = new byte[v.length];
        for (int i = 0; i < v.length; i++) {
            b[i] = (byte) v[i];
        }
        return b;
    }
}
