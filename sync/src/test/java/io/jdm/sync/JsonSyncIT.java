package io.jdm.sync;

import static io.jdm.sync.SyncTestSupport.sourcePosition;
import static io.jdm.sync.SyncTestSupport.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jdm.common.error.JdmException;
import io.jdm.embedded.ServerFlavor;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * MySQL's binary JSON through the sync, on a MySQL 8.0 or 5.7 source ({@code -Djdm.it.servers=mysql8},
 * {@code mysql57:mysql8}, {@code mysql8:mariadb}, …; skipped on a MariaDB source, whose JSON is text):
 * documents holding every kind of value MySQL's format has are inserted, updated with JSON
 * functions and deleted, and the target must print each as the source does
 * ({@code CAST(doc AS CHAR)}) and, on a MySQL target, give the same {@code JSON_TYPE} at every path.
 * A MariaDB target's JSON is LONGTEXT: it takes the source's text, values no expression could
 * give their type included.
 */
class JsonSyncIT {
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS);

    /**
     * Documents any MySQL target takes with their types, evaluated against the one row of
     * {@code src}; {@code depth}: how deep two of them nest (MariaDB's json_valid refuses 32 levels and more).
     */
    private static List<String> documents(int depth) {
        return List.of(
            "JSON_OBJECT('n', 1.5e300, 'x', 1)",
            "JSON_ARRAY(1e15, 1e16, 0.1e0, 1e-7, -0e0, 5e-324, 100e0, 2e0/3, 1.7976931348623157e308, 0.3e0)",
            "(SELECT JSON_ARRAYAGG(RAND(ID) * POW(10, CAST(ID AS SIGNED) % 40 - 20)) FROM information_schema.COLLATIONS)",
            "JSON_ARRAY(9223372036854775807, -9223372036854775808, 18446744073709551615, CAST(5 AS UNSIGNED), "
                    + "65535, -32768, 4294967295, CAST(70000 AS UNSIGNED), 0)",
            "JSON_OBJECT('d', 123456789012345678901234567890, 'n9', " + "9".repeat(65) + ", 'f', 1.50, "
                    + "'neg', -0.001, 'big', CAST('-12345678901234567890123456789012345.123456789012345678901234567890'"
                    + " AS DECIMAL(65,30)))",
            "JSON_OBJECT('t', CAST('-01:02:03' AS TIME), 'a', JSON_ARRAY(CAST('-10:00:00' AS TIME), "
                    + "CAST('-838:59:59' AS TIME), CAST('-00:00:01.5' AS TIME(1))))",
            "JSON_ARRAY(CAST(CAST('2020-01-02' AS DATE) AS JSON), CAST(CAST('2020-01-02 03:04:05.123456' AS "
                    + "DATETIME(6)) AS JSON), CAST(CAST('12:34:56' AS TIME) AS JSON), dt)",
            "CAST(CAST('-01:02:03' AS TIME) AS JSON)",
            "CAST(1.50 AS JSON)",
            "JSON_OBJECT('u', _utf8mb4'\u00e9 \u4e2d\u6587 \ud83d\ude00', 'c', CHAR(1, 8, 10, 34, 92 USING utf8mb4), "
                    + "'k\"ey\\\\', 1, '', 2)",
            "CAST(CONCAT(REPEAT('[', " + depth + "), '{\"a\": 1.5}', REPEAT(']', " + depth + ")) AS JSON)",
            "JSON_SET(CAST(CONCAT(REPEAT('{\"k\": ', " + (depth - 1) + "), '1', REPEAT('}', " + (depth - 1)
                    + ")) AS JSON), CONCAT('$', REPEAT('.k', " + (depth - 1) + ")), CAST('2020-01-01' AS DATE))",
            "JSON_OBJECT('big', REPEAT('x', 70000), 'd', 1.25, 'u', CAST(100000 AS UNSIGNED), "
                    + "'arr', JSON_ARRAY(1, 70000, -70000))",
            "JSON_ARRAY(true, false, NULL, JSON_OBJECT(), JSON_ARRAY(), '', 'null')",
            "NULL");
    }

    /** Opaque binaries of MySQL's own types: as text on a MariaDB target; refused by a MySQL one but VARCHAR's. */
    private static final List<String> BINARIES = List.of("JSON_ARRAY(bl, b, bn)", "JSON_OBJECT('ts', ts)");

    @Test
    void documentsArriveAsTheSourcePrintsThemWithTheirTypes() throws Exception {
        assumeTrue(TestServers.sourceFlavor().isMySql(), "MySQL's binary JSON needs a MySQL source");
        String db = "jsonsyncit_docs";
        ServerPair pair = TestServers.shared();
        SqlServer src = pair.source();
        SqlServer tgt = pair.target();
        boolean textTarget = TestServers.targetFlavor() == ServerFlavor.MARIADB;
        List<String> docs = new ArrayList<>(documents(textTarget ? 30 : 90));
        if (TestServers.sourceFlavor() == ServerFlavor.MYSQL8) {
            docs.add("JSON_ARRAY(x'abcd', REPEAT(x'ab', 100))"); // VARCHAR opaque: 5.7 logs x'' as BIT
        }
        if (textTarget) {
            docs.addAll(BINARIES);
        }
        prepare(src, tgt, db);
        SyncUnit unit = new SyncUnit(config(src, tgt, db, "jsondocs", 131));
        unit.start();
        try {
            for (int i = 0; i < docs.size(); i++) {
                src.execute("INSERT INTO `" + db + "`.docs SELECT " + (i + 1) + ", " + docs.get(i) + " FROM `"
                        + db + "`.src");
            }
            src.execute("INSERT INTO `" + db + "`.nk VALUES (1, CAST(1.50 AS JSON)), "
                    + "(2, JSON_OBJECT('d', CAST('2020-01-02' AS DATE), 'n', 12345678901234567890.5)), "
                    + "(3, JSON_ARRAY(CAST('-01:00:00' AS TIME))), (4, JSON_OBJECT('a', 1, 'b', 'x')), "
                    + "(5, JSON_OBJECT('a', 1, 'b', 'x'))");
            awaitCaughtUp(unit, src);
            assertSame(src, tgt, db, textTarget, docs.size());

            src.execute("UPDATE `" + db + "`.docs SET doc = JSON_SET(doc, '$.x', 2, '$.d2', 3.25, "
                            + "'$.when', CAST('2021-02-03 04:05:06' AS DATETIME)) WHERE JSON_TYPE(doc) = 'OBJECT'",
                    "UPDATE `" + db + "`.docs SET doc = JSON_ARRAY_APPEND(doc, '$', CAST('-20:00:00' AS TIME), "
                            + "'$', 99999999999999999999.99) WHERE JSON_TYPE(doc) = 'ARRAY'",
                    "UPDATE `" + db + "`.docs SET doc = JSON_ARRAY(doc, 2.50) WHERE JSON_TYPE(doc) NOT IN "
                            + "('OBJECT', 'ARRAY')",
                    "UPDATE `" + db + "`.docs SET doc = JSON_REMOVE(doc, '$.n9') WHERE id = 4",
                    "UPDATE `" + db + "`.nk SET doc = JSON_SET(doc, '$.e', CAST(1 AS UNSIGNED)) WHERE id = 2",
                    "UPDATE `" + db + "`.nk SET doc = JSON_ARRAY(doc, CAST('2000-01-01' AS DATE)) WHERE id = 1",
                    "DELETE FROM `" + db + "`.nk WHERE id = 3",
                    "UPDATE `" + db + "`.nk SET doc = JSON_OBJECT('a', 2) WHERE id = 4",
                    "DELETE FROM `" + db + "`.nk WHERE id = 5",
                    "DELETE FROM `" + db + "`.docs WHERE id = 2");
            awaitCaughtUp(unit, src);
            assertSame(src, tgt, db, textTarget, docs.size() - 1);
            assertTrue(unit.failure().isEmpty(), () -> unit.failure().get().getMessage());
        } finally {
            unit.stop();
        }
    }

    @Test
    void aValueNoExpressionGivesItsTypeStopsTheSyncNamingItsPath() throws Exception {
        assumeTrue(TestServers.sourceFlavor().isMySql(), "MySQL's binary JSON needs a MySQL source");
        assumeTrue(TestServers.targetFlavor() != ServerFlavor.MARIADB, "a text target takes every value's text");
        for (String doc : BINARIES) {
            String db = "jsonsyncit_refused";
            ServerPair pair = TestServers.shared();
            SqlServer src = pair.source();
            SqlServer tgt = pair.target();
            prepare(src, tgt, db);
            SyncUnit unit = new SyncUnit(config(src, tgt, db, "jsonrefused", 132));
            unit.start();
            try {
                src.execute("INSERT INTO `" + db + "`.docs VALUES (1, JSON_OBJECT('fine', 1.5))",
                        "INSERT INTO `" + db + "`.docs SELECT 2, " + doc + " FROM `" + db + "`.src");
                JdmException e = awaitFailure(unit);
                String msg = e.getMessage();
                assertFalse(msg.contains("\n"), msg);
                assertTrue(msg.contains("column doc") && msg.contains(db + ".docs")
                        && msg.contains("the JSON value at $") && msg.contains("leave the table out"), msg);
                assertEquals(List.of(), tgt.rows("SELECT id FROM `" + db + "`.docs WHERE id = 2"),
                        "the refused row is not written in another form");
            } finally {
                unit.stop();
            }
        }
    }

    private static void prepare(SqlServer src, SqlServer tgt, String db) {
        src.freshDatabase(db);
        tgt.freshDatabase(db);
        tgt.execute("DROP DATABASE IF EXISTS jdm_meta_jsonsync");
        for (SqlServer s : List.of(src, tgt)) {
            s.execute("CREATE TABLE `" + db + "`.docs (id INT PRIMARY KEY, doc JSON)",
                    "CREATE TABLE `" + db + "`.nk (id INT, doc JSON)");
        }
        src.execute("CREATE TABLE `" + db + "`.src (b BIT(5), bl BLOB, bn BINARY(3), ts TIMESTAMP(6) NULL, "
                        + "dt DATETIME(6))",
                "INSERT INTO `" + db + "`.src VALUES (b'101', x'abcd', x'01', '2020-01-02 03:04:05.5', "
                        + "'1999-12-31 23:59:59.999999')");
    }

    private static SyncConfig config(SqlServer src, SqlServer tgt, String db, String task, int serverId)
            throws SQLException {
        return SyncConfig.builder(task, spec(src), spec(tgt)).start(sourcePosition(src)).workerCount(2)
                .batch(16).metaSchema("jdm_meta_jsonsync").serverId(serverId)
                .tableFilter((d, t) -> d.equals(db) && !t.equals("src")).build();
    }

    private static void awaitCaughtUp(SyncUnit unit, SqlServer src) throws Exception {
        assertTrue(unit.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(60)),
                () -> "not caught up: " + unit.failure().map(Throwable::getMessage).orElse(""));
    }

    private static JdmException awaitFailure(SyncUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (unit.failure().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertTrue(unit.failure().isPresent(), "the unit should have stopped");
        unit.awaitTermination();
        return unit.failure().get();
    }

    /** Same text row by row; on a MySQL target also the same JSON_TYPE at every path of every document. */
    private static void assertSame(SqlServer src, SqlServer tgt, String db, boolean textTarget, int docs)
            throws Exception {
        StringBuilder seen = new StringBuilder();
        for (String table : List.of("docs", "nk")) {
            String q = "SELECT id, CAST(doc AS CHAR) FROM `" + db + "`." + table + " ORDER BY id";
            List<String> s = src.rows(q);
            if (TestServers.sourceFlavor() == TestServers.targetFlavor() || textTarget) {
                assertSameText(s, tgt.rows(q), table);
            } else {
                assertSameValues(s, tgt.rows(q), table);
            }
            if (table.equals("docs")) {
                assertEquals(docs, s.size(), "documents");
            }
            if (textTarget) {
                continue;
            }
            for (String row : s) {
                int bar = row.indexOf('|');
                if (bar == row.length() - 1) {
                    continue; // SQL NULL
                }
                String id = row.substring(0, bar);
                List<String> paths = new ArrayList<>();
                paths(JSON.readTree(row.substring(bar + 1)), new StringBuilder("$"), paths);
                StringBuilder types = new StringBuilder("SELECT CONCAT_WS(' ', 'types'");
                for (String p : paths) {
                    if (p.contains(".\"\"") && TestServers.sourceFlavor() == ServerFlavor.MYSQL57) {
                        continue; // 5.7's paths cannot name an empty key
                    }
                    String literal = "'" + p.replace("\\", "\\\\").replace("'", "\\'") + "'";
                    types.append(", ").append(literal).append(", JSON_TYPE(JSON_EXTRACT(doc, ").append(literal)
                            .append("))");
                }
                types.append(") FROM `").append(db).append("`.").append(table).append(" WHERE id = ").append(id);
                List<String> want = src.rows(types.toString());
                assertEquals(want, tgt.rows(types.toString()), table + " id " + id + ": JSON_TYPE at every path");
                seen.append(want.get(0));
            }
        }
        for (String type : List.of(" DECIMAL", " DOUBLE", " DATE", " TIME", " DATETIME", " UNSIGNED INTEGER",
                " INTEGER", " BLOB", " STRING", " BOOLEAN", " NULL")) {
            boolean blobs = TestServers.sourceFlavor() == ServerFlavor.MYSQL8;
            assertTrue(textTarget || !blobs && type.equals(" BLOB") || seen.indexOf(type + " ") >= 0
                            || seen.toString().endsWith(type),
                    "the documents hold a JSON " + type);
        }
    }

    /** Row by row; a difference is shown around its first character, not as two 70 KB documents. */
    private static void assertSameText(List<String> want, List<String> have, String table) {
        assertEquals(want.size(), have.size(), table + ": rows");
        for (int i = 0; i < want.size(); i++) {
            String w = want.get(i);
            String h = have.get(i);
            int at = 0;
            while (at < Math.min(w.length(), h.length()) && w.charAt(at) == h.charAt(at)) {
                at++;
            }
            int from = Math.max(0, at - 60);
            assertEquals(w.substring(from, Math.min(w.length(), at + 60)), h.substring(from, Math.min(h.length(),
                    at + 60)), table + " row " + w.substring(0, w.indexOf('|')) + " as text, from character " + from);
            assertEquals(w.length(), h.length(), table + " row " + i + " length");
        }
    }

    /**
     * 5.7 and 8.0 print one double differently (100 and 100.0): across versions the documents are
     * compared as values, numbers by their decimal value, their types by JSON_TYPE.
     */
    private static void assertSameValues(List<String> want, List<String> have, String table) throws Exception {
        assertEquals(want.size(), have.size(), table + ": rows");
        for (int i = 0; i < want.size(); i++) {
            String w = want.get(i);
            String h = have.get(i);
            int bar = w.indexOf('|');
            assertEquals(w.substring(0, bar + 1), h.substring(0, Math.min(h.length(), bar + 1)), table + " row " + i);
            if (bar == w.length() - 1) {
                assertEquals(w, h, table + " row " + i);
                continue;
            }
            JsonNode a = JSON.readTree(w.substring(bar + 1));
            JsonNode b = JSON.readTree(h.substring(bar + 1));
            assertTrue(a.equals((x, y) -> x.isNumber() && y.isNumber()
                            ? x.decimalValue().compareTo(y.decimalValue()) : x.equals(y) ? 0 : 1, b),
                    () -> table + " row " + w.substring(0, bar) + " as values");
        }
    }

    /** Every path of a document, containers included, as MySQL writes them. */
    private static void paths(JsonNode n, StringBuilder path, List<String> out) {
        out.add(path.toString());
        int mark = path.length();
        if (n.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                path.append(".\"").append(e.getKey().replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
                paths(e.getValue(), path, out);
                path.setLength(mark);
            }
        } else if (n.isArray()) {
            for (int i = 0; i < n.size(); i++) {
                path.append('[').append(i).append(']');
                paths(n.get(i), path, out);
                path.setLength(mark);
            }
        }
    }
}
