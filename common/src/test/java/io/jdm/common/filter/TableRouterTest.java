package io.jdm.common.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.jdm.common.config.ConfigException;
import io.jdm.common.config.RouteConfig;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TableRouterTest {
    private static final RouteConfig SCHEMA_RULE = route("schema", "shop_*", null, "shop", null);
    private static final RouteConfig TABLE_RULE = route("table", "shop_*", "orders_*", "shop", "orders");

    @Test
    void noRuleKeepsTheName() {
        TableRouter r = TableRouter.of(List.of(), false);
        assertEquals(new RoutedName("a", "b"), r.route("a", "b"));
    }

    @Test
    void schemaLevelRuleRenamesTheSchemaAndKeepsTheTable() {
        TableRouter r = TableRouter.of(List.of(SCHEMA_RULE), false);
        assertEquals(new RoutedName("shop", "items"), r.route("shop_01", "items"));
        assertEquals(new RoutedName("shop", ""), r.route("shop_01", ""), "schema-level statement");
        assertEquals(new RoutedName("crm", "users"), r.route("crm", "users"));
    }

    @Test
    void tableLevelRuleIsPreferred() {
        TableRouter r = TableRouter.of(List.of(SCHEMA_RULE, TABLE_RULE), false);
        assertEquals(new RoutedName("shop", "orders"), r.route("shop_01", "orders_2024"));
        assertEquals(new RoutedName("shop", "items"), r.route("shop_01", "items"), "falls back to the schema rule");
        assertEquals(new RoutedName("shop", ""), r.route("shop_01", null), "table rules never route schemas");
    }

    @Test
    void mergeManyShardsIntoOneTable() {
        TableRouter r = TableRouter.of(List.of(TABLE_RULE), false);
        for (String db : List.of("shop_1", "shop_2")) {
            for (String t : List.of("orders_01", "orders_02")) {
                assertEquals(new RoutedName("shop", "orders"), r.route(db, t));
            }
        }
        assertEquals(new RoutedName("shop_1", ""), r.route("shop_1", ""), "no schema rule: schema unchanged");
    }

    @Test
    void tableRuleWithoutTargetTableKeepsTheTableName() {
        TableRouter r = TableRouter.of(List.of(route("t", "a", "t*", "b", null)), false);
        assertEquals(new RoutedName("b", "t1"), r.route("a", "t1"));
    }

    @Test
    void caseSensitivity() {
        RouteConfig rule = route("r", "Shop", "Orders", "S", "O");
        assertEquals(new RoutedName("S", "O"), TableRouter.of(List.of(rule), false).route("SHOP", "orders"));
        assertEquals(new RoutedName("SHOP", "orders"), TableRouter.of(List.of(rule), true).route("SHOP", "orders"));
    }

    @Test
    void twoMatchingRulesOfOneLevelAreAConfigError() {
        TableRouter r = TableRouter.of(List.of(TABLE_RULE, route("other", "shop_1", "orders_*", "x", null)), false);
        ConfigException e = assertThrows(ConfigException.class, () -> r.route("shop_1", "orders_1"));
        assertEquals("routes: `shop_1`.`orders_1` matches more than one route rule (table, other); "
                + "make their patterns disjoint", e.getMessage());
        assertEquals(new RoutedName("shop", "orders"), r.route("shop_2", "orders_1"));
    }

    private static RouteConfig route(String name, String schema, String table, String targetSchema,
                                     String targetTable) {
        return new RouteConfig(name, schema, Optional.ofNullable(table), targetSchema,
                Optional.ofNullable(targetTable));
    }
}
