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
        OnlineDdl online = new OnlineDdl(ShadowRules.of(OnlineDdlConfig.DEFAULT), null, DdlGrammar.MYSQL);
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
}
