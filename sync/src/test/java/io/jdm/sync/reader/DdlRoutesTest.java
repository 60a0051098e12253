package io.jdm.sync.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.jdm.common.config.OnlineDdlConfig;
import io.jdm.common.sql.TableName;
import io.jdm.sync.ring.ChangePos;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class DdlRoutesTest {
    /** shard_1.t and shard_2.t merge into all.t; src.a is renamed to dst.b; everything else as it is. */
    private static final UnaryOperator<TableName> ROUTER = t -> {
        if (t.schema().startsWith("shard_")) {
            return new TableName("all", t.table());
        }
        if (t.equals(new TableName("src", "a"))) {
            return new TableName("dst", "b");
        }
        return t;
    };
    private static final DdlRoutes ROUTES = new DdlRoutes(ROUTER, Set.of(new TableName("all", "t"))::contains);

    private static String target(String db, String sql) {
        return ROUTES.targetSql(DdlParser.parse(db, sql), "test");
    }

    @Test
    void mergedShardsKeepTheirTable() {
        assertEquals("CREATE TABLE IF NOT EXISTS `all`.`t` (id INT PRIMARY KEY)",
                target("shard_1", "CREATE TABLE t (id INT PRIMARY KEY)"));
        assertEquals("ALTER TABLE `all`.`t` ADD COLUMN c INT", target("shard_2", "ALTER TABLE t ADD COLUMN c INT"));
        assertNull(target("shard_1", "DROP TABLE t"));
        assertNull(target("shard_1", "TRUNCATE TABLE t"));
        assertNull(target("shard_1", "RENAME TABLE t TO t2"));
        assertNull(target("", "DROP DATABASE shard_1"));
        assertEquals("CREATE DATABASE IF NOT EXISTS `all`", target("", "CREATE DATABASE shard_1"));
    }

    @Test
    void aRenamingRouteRewritesEveryKind() {
        assertEquals("CREATE TABLE IF NOT EXISTS `dst`.`b` (id INT)", target("src", "CREATE TABLE a (id INT)"));
        assertEquals("ALTER TABLE `dst`.`b` ADD INDEX i (id)", target("src", "ALTER TABLE a ADD INDEX i (id)"));
        assertEquals("DROP TABLE `dst`.`b`", target("src", "DROP TABLE a"));
        assertEquals("TRUNCATE TABLE `dst`.`b`", target("src", "TRUNCATE TABLE a"));
        assertEquals("RENAME TABLE `dst`.`b` TO `src`.`z`", target("src", "RENAME TABLE a TO z"));
        assertEquals("DROP INDEX i ON `dst`.`b`", target("src", "DROP INDEX i ON a"));
        assertEquals("CREATE TABLE `o`.`t` (id INT)", target("o", "CREATE TABLE t (id INT)"));
    }

    @Test
    void onlineDdlRecordsTheGhostAlterAndAppliesItAtTheSwap() {
        OnlineDdl online = new OnlineDdl(ShadowRules.of(OnlineDdlConfig.DEFAULT), null, DdlGrammar.mysql());
        List<String> applied = new java.util.ArrayList<>();
        int event = 0;
        for (String sql : List.of("DROP TABLE IF EXISTS `d`.`_t_gho`", "create /* gh-ost */ table `d`.`_t_ghc` (id int)",
                "create /* gh-ost */ table `d`.`_t_gho` like `d`.`t`",
                "alter /* gh-ost */ table `d`.`_t_gho` add column c int not null default 3",
                "ALTER TABLE _t_gho ADD INDEX ic (c)",
                "rename /* gh-ost */ table `d`.`t` to `d`.`_t_del`, `d`.`_t_gho` to `d`.`t`",
                "drop /* gh-ost */ table if exists `d`.`_t_del`", "drop table if exists `d`.`_t_ghc`",
                "ALTER TABLE t ADD COLUMN e INT")) {
            event++;
            for (ParsedDdl one : DdlParser.parse("d", sql).split()) {
                online.translate(one, new ChangePos("b.000001", 4 * event, 0, 0, ""), "d", () -> null)
                        .forEach(x -> applied.add(x.ddl().rewrite(UnaryOperator.identity())));
            }
        }
        assertEquals(List.of("alter /* gh-ost */ table `d`.`t` add column c int not null default 3",
                "ALTER TABLE `d`.`t` ADD INDEX ic (c)", "ALTER TABLE `d`.`t` ADD COLUMN e INT"), applied);
    }

    /** What {@link OnlineDdl} gives the target for each statement, in order. */
    private static List<String> online(OnlineDdl online, String... statements) {
        List<String> applied = new java.util.ArrayList<>();
        int event = 0;
        for (String sql : statements) {
            event++;
            ParsedDdl d = DdlParser.parse("d", sql);
            for (ParsedDdl one : d == null ? List.<ParsedDdl>of() : d.split()) { // null: not a DDL sync applies
                online.translate(one, new ChangePos("b.000001", 4 * event, 0, 0, ""), "d", () -> null)
                        .forEach(x -> applied.add(x.ddl().rewrite(UnaryOperator.identity())));
            }
        }
        return applied;
    }

    /**
     * pt-online-schema-change names its table {@code __t_new} when {@code _t_new} exists (left by an
     * earlier run): DM's rule reads that as the shadow table of {@code _t}, but the cut-over's RENAME
     * swaps it in as t, which gets its ALTER (the statements as pt-osc 3.2.1 wrote them).
     */
    @Test
    void ptOscShadowTableOfAnotherNameIsSwappedInAsTheTableItsRenameNames() {
        OnlineDdl online = new OnlineDdl(ShadowRules.of(OnlineDdlConfig.DEFAULT), null, DdlGrammar.mysql());
        assertEquals(List.of("ALTER TABLE `d`.`t` ADD COLUMN c2 INT DEFAULT 7, ADD INDEX k2(k)"), online(online,
                "CREATE TABLE `d`.`_t_new` (x INT PRIMARY KEY)",
                "CREATE TABLE `d`.`__t_new` (\n  `id` int(11) NOT NULL AUTO_INCREMENT,\n  `k` int(11) DEFAULT NULL,\n"
                        + "  PRIMARY KEY (`id`)\n) ENGINE=InnoDB AUTO_INCREMENT=2048 DEFAULT CHARSET=utf8mb4",
                "ALTER TABLE `d`.`__t_new` ADD COLUMN c2 INT DEFAULT 7, ADD INDEX k2(k)",
                "ANALYZE TABLE `d`.`__t_new` /* pt-online-schema-change */",
                "RENAME TABLE `d`.`t` TO `d`.`_t_old`, `d`.`__t_new` TO `d`.`t`",
                "DROP TABLE IF EXISTS `d`.`_t_old`"));
        // a shadow table renamed elsewhere with nothing recorded, or to another shadow name, is no cut-over
        assertEquals(List.of(), online(online, "CREATE TABLE `d`.`_u_new` (id INT)",
                "RENAME TABLE `d`.`_u_new` TO `d`.`u`", "CREATE TABLE `d`.`_v_gho` (id INT)",
                "ALTER TABLE `d`.`_v_gho` ADD COLUMN c INT", "RENAME TABLE `d`.`_v_gho` TO `d`.`_v_del`"));
    }

    /**
     * A shadow table of a schema the task does not migrate is another migration's (two tasks on one
     * source): its statements are neither recorded nor refused, and pass as they are, for the planner
     * to leave out as it leaves out every statement on a table the task does not select.
     */
    @Test
    void theShadowTablesOfASchemaTheTaskLeavesOutAreNotItsOwn() {
        OnlineDdl online = new OnlineDdl(ShadowRules.of(OnlineDdlConfig.DEFAULT), null, DdlGrammar.mysql(),
                db -> db.equals("d"));
        String fk = "CREATE TABLE `e`.`_t_new` (id INT PRIMARY KEY, pid INT, CONSTRAINT `_fk_p` FOREIGN KEY (pid)"
                + " REFERENCES `e`.`p` (id))";
        assertNull(online.unfaithful(DdlParser.parse("e", fk), "b.000001:4"));
        assertEquals(List.of("CREATE TABLE `e`.`_t_new` (id INT PRIMARY KEY, pid INT, CONSTRAINT `_fk_p` FOREIGN KEY"
                        + " (pid) REFERENCES `e`.`p` (id))", "ALTER TABLE `e`.`_t_new` ADD COLUMN c INT",
                        "RENAME TABLE `e`.`_t_new` TO `e`.`t`"),
                online(online, fk, "ALTER TABLE `e`.`_t_new` ADD COLUMN c INT", "RENAME TABLE `e`.`_t_new` TO `e`.`t`"));
        // the task's own schema: recorded, applied at the cut-over
        assertEquals(List.of("ALTER TABLE `d`.`t` ADD COLUMN c INT"), online(online, "CREATE TABLE `d`.`_t_new` (id INT)",
                "ALTER TABLE `d`.`_t_new` ADD COLUMN c INT", "RENAME TABLE `d`.`t` TO `d`.`_t_old`, `d`.`_t_new` TO `d`.`t`"));
    }

    /**
     * pt-online-schema-change creates its table from SHOW CREATE TABLE with every foreign key renamed
     * ({@code fk_p} to {@code _fk_p}): the cut-over cannot give the target's table those names, so
     * the task stops there; a shadow table without foreign keys, or one made LIKE the real table, goes on.
     */
    @Test
    void aShadowTableCreatedWithForeignKeysCannotBeFollowed() {
        OnlineDdl online = new OnlineDdl(ShadowRules.of(OnlineDdlConfig.DEFAULT), null, DdlGrammar.mysql());
        String why = online.unfaithful(DdlParser.parse("d", "CREATE TABLE `d`.`_t_new` (\n  `id` int(11) NOT NULL,\n"
                + "  `pid` int(11) DEFAULT NULL,\n  PRIMARY KEY (`id`),\n  KEY `fk_p` (`pid`),\n  CONSTRAINT `_fk_p` "
                + "FOREIGN KEY (`pid`) REFERENCES `p` (`id`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4"), "b.000001:4");
        assertEquals("the shadow table d._t_new is created with foreign keys, which the online schema change tool "
                + "names apart from the real table's (pt-online-schema-change adds or takes off a leading underscore): "
                + "after its cut-over the source's table has constraint names the target's cannot get from the "
                + "recorded ALTERs; skip this statement (jdm binlog skip TASK.yaml --binlog-pos b.000001:4) to have "
                + "the cut-over apply the ALTERs with the target's names kept, and after it rename the foreign keys "
                + "of the target's d.t as the source's are", why);
        assertNull(online.unfaithful(DdlParser.parse("d", "CREATE TABLE `d`.`_t_new` (id INT PRIMARY KEY)"), ""));
        assertNull(online.unfaithful(DdlParser.parse("d", "create table `d`.`_t_gho` like `d`.`t`"), ""));
        assertNull(online.unfaithful(DdlParser.parse("d", "CREATE TABLE `d`.`c` (id INT, tid INT, "
                + "CONSTRAINT fk_t FOREIGN KEY (tid) REFERENCES `d`.`t` (id))"), ""));

        // two shadow tables whose names say _t, each with an ALTER waiting: which one t got cannot be told
        online(online, "CREATE TABLE `d`.`__t_new` (id INT)", "CREATE TABLE `d`.`__t_gho` (id INT)",
                "ALTER TABLE `d`.`__t_new` ADD COLUMN a INT", "ALTER TABLE `d`.`__t_gho` ADD COLUMN b INT");
        assertEquals("the shadow table d.__t_new is renamed to d.t while ALTERs of [d.__t_gho] wait for the same "
                + "real table d._t: which of them d.t got cannot be told; make the target's d.t what the source's "
                + "became and skip this statement (jdm binlog skip TASK.yaml --binlog-pos b.000001:9), or give the "
                + "target statements in its place (jdm binlog replace TASK.yaml --binlog-pos b.000001:9 --sql ...)",
                online.unfaithful(DdlParser.parse("d", "RENAME TABLE `d`.`__t_new` TO `d`.`t`"), "b.000001:9"));
    }
}
