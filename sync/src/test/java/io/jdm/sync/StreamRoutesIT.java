package io.jdm.sync;

import static io.jdm.sync.SyncTestSupport.assertSameRows;
import static io.jdm.sync.SyncTestSupport.rows;
import static io.jdm.sync.SyncTestSupport.sourcePosition;
import static io.jdm.sync.SyncTestSupport.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.sql.TableName;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** Routes applied to DDL (renamed tables, shards merged into one table) and gh-ost's cut-over. */
class StreamRoutesIT {
    private final ServerPair pair = TestServers.shared();
    private final SqlServer src = pair.source();
    private final SqlServer tgt = pair.target();

    private SyncConfig.Builder config(String task, long serverId) {
        tgt.execute("DROP DATABASE IF EXISTS jdm_meta_" + task);
        return SyncConfig.builder(task, spec(src), spec(tgt)).workerCount(3).metaSchema("jdm_meta_" + task)
                .serverId(serverId);
    }

    private static void awaitCaughtUp(SyncUnit unit, SqlServer src) throws Exception {
        assertTrue(unit.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(90)),
                () -> "not caught up: " + unit.failure().map(Throwable::getMessage).orElse(""));
    }

    @Test
    void shardsMergeIntoOneTableAndARenamedTableFollowsItsDdl() throws Exception {
        String s1 = "streamroutesit_s1";
        String s2 = "streamroutesit_s2";
        String all = "streamroutesit_all";
        String dst = "streamroutesit_dst";
        for (String db : List.of(s1, s2)) {
            src.freshDatabase(db);
            tgt.execute("DROP DATABASE IF EXISTS `" + db + "`");
        }
        tgt.execute("DROP DATABASE IF EXISTS `" + all + "`", "DROP DATABASE IF EXISTS `" + dst + "`");
        UnaryOperator<TableName> router = t -> {
            if (t.equals(new TableName(s1, "a"))) {
                return new TableName(dst, "b");
            }
            return t.schema().equals(s1) || t.schema().equals(s2) ? new TableName(all, t.table()) : t;
        };
        SyncUnit unit = new SyncUnit(config("streammerge", 7301).start(sourcePosition(src)).router(router)
                .tableFilter((d, t) -> d.equals(s1) || d.equals(s2)).build());
        unit.start();
        try {
            for (String db : List.of(s1, s2)) {
                src.execute("CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY, v VARCHAR(20))");
            }
            src.execute("INSERT INTO `" + s1 + "`.t VALUES (1, 'a'), (2, 'b')",
                    "INSERT INTO `" + s2 + "`.t VALUES (101, 'x'), (102, 'y')",
                    "ALTER TABLE `" + s1 + "`.t ADD COLUMN c INT NOT NULL DEFAULT 1 AFTER id",
                    "INSERT INTO `" + s1 + "`.t VALUES (3, 30, 'c')",
                    "ALTER TABLE `" + s2 + "`.t ADD COLUMN c INT NOT NULL DEFAULT 1 AFTER id",
                    "UPDATE `" + s2 + "`.t SET c = 2 WHERE id = 101",
                    "INSERT INTO `" + s2 + "`.t VALUES (103, 3, 'z')",
                    "CREATE INDEX iv ON `" + s1 + "`.t (v)",
                    "CREATE INDEX iv ON `" + s2 + "`.t (v)",
                    "CREATE TABLE `" + s1 + "`.a (k INT PRIMARY KEY, x INT)",
                    "INSERT INTO `" + s1 + "`.a VALUES (1, 10), (2, 20)",
                    "ALTER TABLE `" + s1 + "`.a ADD COLUMN y VARCHAR(5) NULL AFTER k",
                    "INSERT INTO `" + s1 + "`.a VALUES (3, 'yy', 30)",
                    "UPDATE `" + s1 + "`.a SET y = 'u' WHERE k = 1",
                    "CREATE INDEX ix ON `" + s1 + "`.a (x)",
                    "TRUNCATE TABLE `" + s2 + "`.t");
            awaitCaughtUp(unit, src);
            List<String> merged = new ArrayList<>(rows(src, new TableName(s1, "t")));
            merged.addAll(List.of(
                    "id=101(Long) | c=2(Long) | v=x(String) | ",
                    "id=102(Long) | c=1(Long) | v=y(String) | ",
                    "id=103(Long) | c=3(Long) | v=z(String) | "));
            merged.sort(null);
            List<String> target = new ArrayList<>(rows(tgt, new TableName(all, "t")));
            target.sort(null);
            assertEquals(merged, target, "both shards in one table; the shard's TRUNCATE kept the merged rows");
            assertEquals(rows(src, new TableName(s1, "a")), rows(tgt, new TableName(dst, "b")));
            assertEquals(List.of("ix"), indexes(dst, "b"));
            assertEquals(List.of("iv"), indexes(all, "t"));
        } finally {
            unit.stop();
        }
        assertTrue(unit.failure().isEmpty(), () -> unit.failure().get().getMessage());
    }

    private List<String> indexes(String db, String table) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = tgt.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT DISTINCT INDEX_NAME FROM information_schema.STATISTICS WHERE "
                     + "TABLE_SCHEMA = '" + db + "' AND TABLE_NAME = '" + table + "' AND INDEX_NAME <> 'PRIMARY' "
                     + "ORDER BY 1")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    @Test
    void ghostTablesStayOffTheTargetAndTheCutOverAppliesTheRecordedAlter() throws Exception {
        String db = "streamroutesit_gho";
        src.freshDatabase(db);
        tgt.freshDatabase(db);
        String create = "CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY, v VARCHAR(20))";
        src.execute(create);
        tgt.execute(create);
        src.execute("INSERT INTO `" + db + "`.t VALUES (1, 'a'), (2, 'b'), (3, 'c')");
        tgt.execute("INSERT INTO `" + db + "`.t VALUES (1, 'a'), (2, 'b'), (3, 'c')");
        SyncUnit unit = new SyncUnit(config("streamghost", 7302).start(sourcePosition(src))
                .tableFilter((d, t) -> d.equals(db)).build());
        unit.start();
        String q = "`" + db + "`.";
        try {
            // What gh-ost issues, in its order (its row copy and binlog replay are plain DML on _t_gho).
            src.execute("create /* gh-ost */ table " + q + "`_t_ghc` (id bigint auto_increment primary key,"
                            + " hint varchar(64) not null, value text, unique key (hint))",
                    "create /* gh-ost */ table " + q + "`_t_gho` like " + q + "`t`",
                    "alter /* gh-ost */ table " + q + "`_t_gho` add column c int not null default 7",
                    "insert into " + q + "`_t_ghc` (hint, value) values ('state', 'migrating')",
                    "INSERT INTO " + q + "t VALUES (4, 'd')",
                    "insert /* gh-ost */ ignore into " + q + "`_t_gho` (id, v) select id, v from " + q + "`t`",
                    "UPDATE " + q + "t SET v = 'bb' WHERE id = 2",
                    "update /* gh-ost */ " + q + "`_t_gho` set v = 'bb' where id = 2",
                    "rename /* gh-ost */ table " + q + "`t` to " + q + "`_t_del`, " + q + "`_t_gho` to " + q + "`t`",
                    "drop /* gh-ost */ table if exists " + q + "`_t_del`",
                    "drop /* gh-ost */ table if exists " + q + "`_t_ghc`",
                    "INSERT INTO " + q + "t VALUES (5, 'e', 50)",
                    "UPDATE " + q + "t SET c = 8 WHERE id = 1");
            awaitCaughtUp(unit, src);
            assertSameRows(src, tgt, new TableName(db, "t"));
            List<String> tables = new ArrayList<>();
            try (Connection c = tgt.connect(); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT TABLE_NAME FROM information_schema.TABLES WHERE "
                         + "TABLE_SCHEMA = '" + db + "' ORDER BY 1")) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            assertEquals(List.of("t"), tables, "no shadow table reaches the target");
        } finally {
            unit.stop();
        }
        assertTrue(unit.failure().isEmpty(), () -> unit.failure().get().getMessage());
    }
}
