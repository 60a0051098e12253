package io.jdm.common.filter;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.config.BlockAllowListConfig;
import io.jdm.common.config.BlockAllowListConfig.TableRule;
import io.jdm.common.config.TaskConfig;
import io.jdm.common.config.TaskConfigLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** MySQL's replicate-* evaluation order, as DM's block-allow-list documents it. */
class TableFilterTest {
    private static final String META = "jdm_meta";

    @Test
    void noRulesKeepsEverythingButSystemSchemas() {
        TableFilter f = TableFilter.of(BlockAllowListConfig.allowAll(), false, META);
        assertTrue(f.matchTable("shop", "orders"));
        assertTrue(f.matchSchema("shop"));
        for (String system : List.of("mysql", "information_schema", "PERFORMANCE_SCHEMA", "sys", "jdm_meta")) {
            assertFalse(f.matchSchema(system), system);
            assertFalse(f.matchTable(system, "t"), system);
        }
    }

    @Test
    void systemSchemasStayExcludedEvenWhenRulesAskForThem() {
        TableFilter f = filter(List.of("*"), List.of(), List.of(new TableRule("mysql", "user")), List.of());
        assertFalse(f.matchTable("mysql", "user"));
        assertFalse(f.matchSchema("jdm_meta"));
    }

    @Test
    void doDbsIsAnAllowList() {
        TableFilter f = filter(List.of("shop", "crm_*"), List.of(), List.of(), List.of());
        assertTrue(f.matchSchema("shop"));
        assertTrue(f.matchTable("crm_eu", "users"));
        assertFalse(f.matchSchema("hr"));
        assertFalse(f.matchTable("hr", "staff"));
    }

    @Test
    void ignoreDbsIsNotConsultedWhenDoDbsIsSet() {
        TableFilter f = filter(List.of("shop*"), List.of("shop_tmp"), List.of(), List.of());
        assertTrue(f.matchSchema("shop_tmp"), "do-dbs decides alone, like replicate-do-db");
        assertFalse(f.matchSchema("hr"));
    }

    @Test
    void ignoreDbsIsABlockList() {
        TableFilter f = filter(List.of(), List.of("tmp*", "~^test"), List.of(), List.of());
        assertFalse(f.matchSchema("tmp1"));
        assertFalse(f.matchTable("test_a", "t"));
        assertTrue(f.matchTable("shop", "t"));
    }

    @Test
    void doDbsWithIgnoreTables() {
        TableFilter f = filter(List.of("shop"), List.of(), List.of(), List.of(new TableRule("shop", "log*")));
        assertTrue(f.matchTable("shop", "orders"));
        assertFalse(f.matchTable("shop", "log_2024"));
        assertTrue(f.matchSchema("shop"), "ignore-tables does not touch the schema itself");
        assertFalse(f.matchTable("crm", "users"), "the schema check comes first");
    }

    @Test
    void doTablesIsAnAllowListForTables() {
        TableFilter f = filter(List.of(), List.of(), List.of(new TableRule("shop", "orders"),
                new TableRule("~^crm_\\d+$", "~^user")), List.of());
        assertTrue(f.matchTable("shop", "orders"));
        assertFalse(f.matchTable("shop", "items"));
        assertTrue(f.matchTable("crm_7", "users"));
        assertFalse(f.matchTable("crm_x", "users"));
        assertTrue(f.matchSchema("hr"), "schema statements only see schema rules");
        assertFalse(f.mayMatchTablesIn("hr"), "but no table of hr can match");
        assertTrue(f.mayMatchTablesIn("crm_7"));
    }

    @Test
    void doTablesWinsOverIgnoreTables() {
        TableFilter f = filter(List.of(), List.of(), List.of(new TableRule("shop", "orders")),
                List.of(new TableRule("shop", "*")));
        assertTrue(f.matchTable("shop", "orders"), "a do-table match keeps the table before ignore-tables is read");
        assertFalse(f.matchTable("shop", "items"));
    }

    @Test
    void ignoreTablesAloneKeepsTheRest() {
        TableFilter f = filter(List.of(), List.of(), List.of(), List.of(new TableRule("shop", "tmp_?")));
        assertFalse(f.matchTable("shop", "tmp_1"));
        assertTrue(f.matchTable("shop", "tmp_12"));
        assertTrue(f.matchTable("crm", "tmp_1"));
    }

    @Test
    void ignoreDbsThenDoTables() {
        TableFilter f = filter(List.of(), List.of("crm"), List.of(new TableRule("*", "orders")), List.of());
        assertFalse(f.matchTable("crm", "orders"), "ignore-dbs drops the schema before table rules run");
        assertTrue(f.matchTable("shop", "orders"));
        assertFalse(f.matchTable("shop", "items"));
    }

    @Test
    void caseSensitivity() {
        BlockAllowListConfig rules = new BlockAllowListConfig("bw", List.of("Shop"), List.of(),
                List.of(), List.of(new TableRule("Shop", "Log")));
        TableFilter insensitive = TableFilter.of(rules, false, META);
        assertTrue(insensitive.matchTable("SHOP", "orders"));
        assertFalse(insensitive.matchTable("shop", "LOG"));
        TableFilter sensitive = TableFilter.of(rules, true, META);
        assertFalse(sensitive.matchTable("shop", "orders"));
        assertTrue(sensitive.matchTable("Shop", "log"));
        assertFalse(sensitive.matchTable("Shop", "Log"));
    }

    @Test
    void emptyTableNameAsksAboutTheSchema() {
        TableFilter f = filter(List.of("shop"), List.of(), List.of(), List.of());
        assertTrue(f.matchTable("shop", ""));
        assertTrue(f.matchTable("shop", null));
        assertFalse(f.matchTable("crm", ""));
    }

    @Test
    void builtFromALoadedTask() {
        TaskConfig task = new TaskConfigLoader(Map.<String, String>of()::get).parse("""
                name: t
                task-mode: full
                meta-schema: my_meta
                target-database: {host: h, user: u}
                block-allow-list:
                  bw: {ignore-dbs: [tmp]}
                mysql-instances:
                  - {source-id: a, from: {host: h, user: u}, block-allow-list: bw}
                  - {source-id: b, from: {host: h, user: u}}
                """, Path.of("."));
        TableFilter a = TableFilter.forInstance(task, task.instance("a"));
        TableFilter b = TableFilter.forInstance(task, task.instance("b"));
        assertFalse(a.matchSchema("tmp"));
        assertTrue(b.matchSchema("tmp"));
        assertFalse(b.matchSchema("my_meta"));
        assertTrue(b.matchSchema("jdm_meta"), "only the task's own meta-schema is excluded");
    }

    private static TableFilter filter(List<String> doDbs, List<String> ignoreDbs, List<TableRule> doTables,
                                      List<TableRule> ignoreTables) {
        return TableFilter.of(new BlockAllowListConfig("bw", doDbs, ignoreDbs, doTables, ignoreTables), false, META);
    }
}
