package io.jdm.sync;

import static io.jdm.sync.SyncTestSupport.sourcePosition;
import static io.jdm.sync.SyncTestSupport.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.config.Action;
import io.jdm.common.config.EventType;
import io.jdm.common.config.FilterConfig;
import io.jdm.common.error.JdmException;
import io.jdm.common.filter.EventFilter;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * DM's DDL event types in {@code filters}, clause by clause: DM's own {@code incompatible_ddl_changes}
 * case (its data and its statements, in its order) is typed as DM types it, and a rule that
 * ignores one clause of an ALTER keeps the others on the target.
 */
class FilterClausesIT {
    private static final String DB = "incompatible_ddl_changes";
    private static final String T1 = DB + ".t1";

    private final ServerPair pair = TestServers.shared();
    private final SqlServer src = pair.source();
    private final SqlServer tgt = pair.target();

    /**
     * The statements of DM's dm/tests/incompatible_ddl_changes/run.sh, in its order, each with the
     * event DM's test waits for (null where it waits for none).
     */
    private static List<Map.Entry<String, EventType>> dmCase(boolean mysql8) {
        List<Map.Entry<String, EventType>> m = new ArrayList<>();
        m.add(entry("alter table " + T1 + " modify column c_mediumint smallint(6)", EventType.VALUE_RANGE_DECREASE));
        m.add(entry("alter table " + T1 + " modify column c_mediumint mediumint(7)", null));
        m.add(entry("alter table " + T1 + " modify column c_decimal decimal(7,1)", EventType.PRECISION_DECREASE));
        m.add(entry("alter table " + T1 + " modify column c_decimal decimal(7,2)", EventType.PRECISION_DECREASE));
        m.add(entry("alter table " + T1 + " modify column c_mediumint varchar(10)", EventType.MODIFY_COLUMN));
        m.add(entry("alter table " + T1 + " modify column c_mediumint mediumint(7)", EventType.MODIFY_COLUMN));
        m.add(entry("alter table " + T1 + " change c_mediumint c_mediumint_new mediumint(7)", EventType.RENAME_COLUMN));
        m.add(entry("alter table " + T1 + " change c_mediumint_new c_mediumint mediumint(7)", EventType.RENAME_COLUMN));
        m.add(entry("alter table " + T1 + " drop column c_json", EventType.DROP_COLUMN));
        m.add(entry("alter table " + T1 + " add column c_json json", null));
        m.add(entry("alter table " + T1 + " change id id int(11)", EventType.REMOVE_AUTO_INCREMENT));
        m.add(entry("alter table " + T1 + " drop primary key", EventType.DROP_PRIMARY_KEY));
        m.add(entry("alter table " + T1 + " change c_int c_int int default 1", EventType.MODIFY_DEFAULT_VALUE));
        m.add(entry("alter table " + T1 + " add constraint c_int_unique unique(c_int)", EventType.MODIFY_CONSTRAINT));
        // DM waits for "drop unique key" here: it reads keys from TiDB's column flags. The unique key
        // stays on MySQL and MariaDB; what this MODIFY changes is the default (1 → none).
        m.add(entry("alter table " + T1 + " change c_int c_int int", EventType.MODIFY_DEFAULT_VALUE));
        m.add(entry("alter table " + T1 + " drop index c_int_unique", EventType.DROP_INDEX));
        m.add(entry("alter table " + T1 + " change c_smallint c_smallint smallint(6) after c_json",
                EventType.MODIFY_COLUMNS_ORDER));
        m.add(entry("alter table " + T1 + " modify c_char char(4) CHARACTER SET latin1", EventType.MODIFY_CHARSET));
        m.add(entry("alter table " + T1 + " modify c_text text COLLATE utf8mb4_unicode_ci", EventType.MODIFY_COLLATION));
        // MySQL 8.0 partitions no MyISAM table (the statements after this one partition t1)
        m.add(entry("alter table " + T1 + " engine = " + (mysql8 ? "InnoDB" : "MyISAM"),
                EventType.MODIFY_STORAGE_ENGINE));
        m.add(entry("alter table " + T1 + " partition by range(id) (partition p0 values less than (100000))", null));
        m.add(entry("alter table " + T1 + " reorganize partition p0 into ( partition n0 values less than (5), partition n1 "
                + "values less than (100000))", EventType.REORGANIZE_TABLE_PARTITION));
        m.add(entry("alter table " + T1 + " truncate partition n0", EventType.TRUNCATE_TABLE_PARTITION));
        m.add(entry("alter table " + T1 + " rebuild partition n0,n1", EventType.REBUILD_TABLE_PARTITION));
        m.add(entry("create table " + DB + ".tb1(id int) partition by range(id)(partition p0 values less than (100000), "
                + "partition p1 values less than(1000000))", null));
        m.add(entry("create table " + DB + ".tb2(id int)", null));
        m.add(entry("alter table " + DB + ".tb1 exchange partition p0 with table " + DB + ".tb2",
                EventType.EXCHANGE_TABLE_PARTITION));
        m.add(entry("create table " + DB + ".tb3(id int) partition by hash(id) partitions 6", null));
        m.add(entry("alter table " + DB + ".tb3 coalesce partition 2", EventType.COALESCE_TABLE_PARTITION));
        m.add(entry("alter table " + DB + ".tb3 add index idx(id)", EventType.MODIFY_CONSTRAINT));
        m.add(entry("alter table " + DB + ".tb3 rename index idx to idx1", EventType.RENAME_INDEX));
        m.add(entry("alter table " + DB + ".tb1 drop partition p0", EventType.DROP_TABLE_PARTITION));
        m.add(entry("rename table " + DB + ".tb3 to " + DB + ".tb4", EventType.RENAME_TABLE));
        m.add(entry("truncate table " + DB + ".tb4", EventType.TRUNCATE_TABLE));
        m.add(entry("drop table " + DB + ".tb4", EventType.DROP_TABLE));
        return m;
    }

    private static Map.Entry<String, EventType> entry(String sql, EventType type) {
        return new java.util.AbstractMap.SimpleEntry<>(sql, type);
    }

    /** DM's data/db1.prepare.sql and db1.increment.sql, the database made utf8mb4 (this MariaDB's default is latin1). */
    private static List<String> dmData() throws IOException {
        List<String> out = new ArrayList<>();
        for (String f : List.of("db1.prepare.sql", "db1.increment.sql")) {
            try (InputStream in = FilterClausesIT.class.getResourceAsStream("/dm-data/" + DB + "/" + f)) {
                String text = new String(in.readAllBytes(), StandardCharsets.UTF_8)
                        .replaceAll("(?m)^--.*$", "")
                        .replace("create database `" + DB + "`;", "create database `" + DB + "` CHARACTER SET utf8mb4;");
                for (String s : text.split(";\\s*\n")) {
                    if (!s.isBlank()) {
                        out.add(s.strip());
                    }
                }
            }
        }
        return out;
    }

    /** A statement as the binlog may spell it (MariaDB quotes names and comments a DROP TABLE). */
    private static String plain(String sql) {
        return sql.replace("/* generated by server */", "").replace("`", "").replaceAll("\\s+", " ").strip()
                .toLowerCase(java.util.Locale.ROOT);
    }

    @Test
    void dmsIncompatibleDdlCaseIsTypedAsDmTypesIt() throws Exception {
        for (SqlServer s : List.of(src, tgt)) {
            s.execute("DROP DATABASE IF EXISTS " + DB);
        }
        tgt.execute("DROP DATABASE IF EXISTS jdm_meta_filterclauses");
        var start = sourcePosition(src);
        // every statement is applied (target and tracker follow the source); the types are recorded
        List<Map.Entry<String, EventType>> typed = java.util.Collections.synchronizedList(new ArrayList<>());
        EventFilter dmRule = EventFilter.of(List.of(new FilterConfig("filter-01", "*", Optional.of("*"),
                List.of(EventType.INCOMPATIBLE_DDL_CHANGES), List.of(), Action.ERROR)), false);
        List<String> wronglyPassed = new ArrayList<>();
        SyncUnit unit = new SyncUnit(SyncConfig.builder("filterclauses", spec(src), spec(tgt))
                .metaSchema("jdm_meta_filterclauses").serverId(7301).start(start)
                .tableFilter((d, t) -> d.equals(DB))
                .eventFilter((db, table, type, sql) -> {
                    if (sql != null) {
                        typed.add(entry(plain(sql), type));
                    }
                    return Action.DO;
                }).build());
        unit.start();
        try {
            src.execute(dmData().toArray(String[]::new));
            List<Map.Entry<String, EventType>> dm = dmCase(src.serverFlavor() == io.jdm.embedded.ServerFlavor.MYSQL8);
            src.execute(dm.stream().map(Map.Entry::getKey).toArray(String[]::new));
            assertTrue(unit.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(90)),
                    () -> "not caught up: " + unit.failure().map(Throwable::getMessage).orElse(""));
            List<String> wrong = new ArrayList<>();
            int at = 0;
            for (var e : dm) {
                // the types recorded for this statement: the next decisions on its text, in order
                while (at < typed.size() && !typed.get(at).getKey().equals(plain(e.getKey()))) {
                    at++;
                }
                List<EventType> got = new ArrayList<>();
                while (at < typed.size() && typed.get(at).getKey().equals(plain(e.getKey()))) {
                    got.add(typed.get(at++).getValue());
                }
                if (e.getValue() != null && !got.contains(e.getValue())) {
                    wrong.add(e.getKey() + ": expected " + e.getValue().yamlName() + ", typed " + got);
                }
                // DM's dm-task.yaml stops on each statement it waits for an event on
                boolean stops = got.stream().anyMatch(t -> dmRule.decide(DB, "t1", t, e.getKey()) == Action.ERROR);
                if (e.getValue() != null && !stops) {
                    wronglyPassed.add(e.getKey());
                }
            }
            assertEquals(List.of(), wrong, "each statement typed as DM's test expects");
            assertEquals(List.of(), wronglyPassed, "incompatible ddl changes with action Error stops on each");
            for (String t : List.of("t1", "tb1", "tb2")) {
                assertEquals(src.rows("SHOW CREATE TABLE " + DB + "." + t), tgt.rows("SHOW CREATE TABLE " + DB + "." + t),
                        t + " followed the source");
                assertEquals(src.hexRows(DB, t), tgt.hexRows(DB, t), t);
            }
        } finally {
            unit.stop();
            unit.awaitTermination();
        }
    }

    @Test
    void anIgnoredClauseIsCutOutAndTheRestOfTheAlterApplies() throws Exception {
        String db = "filterclauses_cut";
        src.freshDatabase(db);
        tgt.freshDatabase(db);
        for (SqlServer s : List.of(src, tgt)) {
            s.execute("CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY, keep_me INT, v VARCHAR(20), KEY kv (v))");
        }
        tgt.execute("DROP DATABASE IF EXISTS jdm_meta_filtercut");
        EventFilter rules = EventFilter.of(List.of(
                new FilterConfig("protect-columns", db, Optional.of("t"), List.of(EventType.DROP_COLUMN), List.of(),
                        Action.IGNORE),
                new FilterConfig("no-narrowing", db, Optional.of("t"), List.of(EventType.VALUE_RANGE_DECREASE),
                        List.of(), Action.ERROR)), false);
        SyncUnit unit = new SyncUnit(SyncConfig.builder("filtercut", spec(src), spec(tgt)).metaSchema("jdm_meta_filtercut")
                .serverId(7302).start(sourcePosition(src)).tableFilter((d, t) -> d.equals(db))
                .eventFilter(rules::decide).build());
        unit.start();
        try {
            src.execute("INSERT INTO `" + db + "`.t VALUES (1, 10, 'a'), (2, 20, 'b')",
                    // one clause ignored, two applied, ALGORITHM kept with them
                    "ALTER TABLE `" + db + "`.t ADD COLUMN w INT NOT NULL DEFAULT 7, DROP COLUMN keep_me, "
                            + "DROP INDEX kv, ALGORITHM=COPY",
                    // every clause ignored: nothing reaches the target
                    "ALTER TABLE `" + db + "`.t DROP COLUMN v",
                    "INSERT INTO `" + db + "`.t (id, w) VALUES (3, 30)");
            assertTrue(unit.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(90)),
                    () -> "not caught up: " + unit.failure().map(Throwable::getMessage).orElse(""));
            assertEquals(List.of("id,keep_me,v,w"), tgt.rows("SELECT GROUP_CONCAT(COLUMN_NAME ORDER BY ORDINAL_POSITION) "
                    + "FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = '" + db + "' AND TABLE_NAME = 't'"),
                    "the dropped columns stay, the added one is there");
            assertEquals(List.of("0"), tgt.rows("SELECT COUNT(*) FROM information_schema.STATISTICS WHERE "
                    + "TABLE_SCHEMA = '" + db + "' AND INDEX_NAME = 'kv'"), "DROP INDEX, in the same ALTER, applied");
            assertEquals(List.of("1|10|a|7", "2|20|b|7", "3|null|null|30"), tgt.rows("SELECT CONCAT_WS('|', id, "
                    + "IFNULL(keep_me, 'null'), IFNULL(v, 'null'), w) FROM `" + db + "`.t ORDER BY id"));
            src.execute("ALTER TABLE `" + db + "`.t MODIFY w SMALLINT NOT NULL DEFAULT 7");
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (unit.failure().isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            JdmException e = unit.failure().orElseThrow(() -> new AssertionError("the narrowing MODIFY should stop"));
            assertTrue(e.getMessage().contains("value range decrease on " + db + ".t"), e.getMessage());
            assertEquals(List.of("int"), tgt.rows("SELECT DATA_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = '"
                    + db + "' AND TABLE_NAME = 't' AND COLUMN_NAME = 'w'"), "the stopped MODIFY did not reach the target");
        } finally {
            unit.stop();
            unit.awaitTermination();
        }
    }
}
