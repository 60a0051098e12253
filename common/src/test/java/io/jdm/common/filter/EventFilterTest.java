package io.jdm.common.filter;

import static io.jdm.common.config.Action.DO;
import static io.jdm.common.config.Action.ERROR;
import static io.jdm.common.config.Action.IGNORE;
import static io.jdm.common.config.EventType.ALTER_TABLE;
import static io.jdm.common.config.EventType.CREATE_DATABASE;
import static io.jdm.common.config.EventType.CREATE_TABLE;
import static io.jdm.common.config.EventType.DELETE;
import static io.jdm.common.config.EventType.DROP_DATABASE;
import static io.jdm.common.config.EventType.DROP_TABLE;
import static io.jdm.common.config.EventType.INSERT;
import static io.jdm.common.config.EventType.OTHER_DDL;
import static io.jdm.common.config.EventType.TRUNCATE_TABLE;
import static io.jdm.common.config.EventType.UPDATE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.config.Action;
import io.jdm.common.config.EventType;
import io.jdm.common.config.FilterConfig;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class EventFilterTest {
    @Test
    void noRulesDoEverything() {
        EventFilter f = EventFilter.of(List.of(), false);
        assertEquals(DO, f.decide("a", "b", DELETE, null));
    }

    @Test
    void ignoreRuleByEventType() {
        EventFilter f = filter(rule("shop_*", "t_*", List.of(TRUNCATE_TABLE, DROP_TABLE), List.of(), IGNORE));
        assertEquals(IGNORE, f.decide("shop_1", "t_1", TRUNCATE_TABLE, "TRUNCATE TABLE t_1"));
        assertEquals(IGNORE, f.decide("shop_1", "t_1", DROP_TABLE, "DROP TABLE t_1"));
        assertEquals(DO, f.decide("shop_1", "t_1", INSERT, null));
        assertEquals(DO, f.decide("shop_1", "x", TRUNCATE_TABLE, "TRUNCATE TABLE x"), "table does not match");
        assertEquals(DO, f.decide("crm", "t_1", TRUNCATE_TABLE, "TRUNCATE TABLE t_1"), "schema does not match");
    }

    @Test
    void sqlPatternMatchesDdlTextIgnoringCase() {
        EventFilter f = filter(rule("shop", null, List.of(), List.of("^DROP\\s+PROCEDURE", "^CREATE\\s+PROCEDURE"),
                IGNORE));
        assertEquals(IGNORE, f.decide("shop", "", OTHER_DDL, "drop procedure p1"));
        assertEquals(IGNORE, f.decide("shop", "", OTHER_DDL, "CREATE  PROCEDURE p2() BEGIN END"));
        assertEquals(DO, f.decide("shop", "", OTHER_DDL, "ALTER DATABASE shop CHARACTER SET utf8mb4"));
        assertEquals(DO, f.decide("shop", "t", INSERT, "DROP PROCEDURE p"), "sql-pattern is for DDL only");
    }

    @Test
    void alterTableClausesMatchAsDmTypesThem() {
        EventFilter alter = filter(rule("a", null, List.of(ALTER_TABLE), List.of(), IGNORE));
        assertEquals(IGNORE, alter.decide("a", "t", EventType.ADD_COLUMN, "ALTER TABLE t ADD c INT"),
                "DM types ADD COLUMN alter table");
        assertEquals(DO, alter.decide("a", "t", EventType.DROP_COLUMN, "ALTER TABLE t DROP c"),
                "a clause with a type of its own is not alter table, as in DM");
        EventFilter incompatible = filter(rule("a", null, List.of(EventType.INCOMPATIBLE_DDL_CHANGES), List.of(),
                ERROR));
        for (EventType t : List.of(EventType.DROP_COLUMN, EventType.ADD_PRIMARY_KEY, EventType.SET_DEFAULT_VALUE,
                EventType.VALUE_RANGE_DECREASE, TRUNCATE_TABLE, DROP_TABLE, EventType.RENAME_TABLE)) {
            assertEquals(ERROR, incompatible.decide("a", "t", t, "x"), t.yamlName());
        }
        for (EventType t : List.of(EventType.ADD_COLUMN, ALTER_TABLE, CREATE_TABLE, EventType.ADD_TABLE_PARTITION,
                EventType.DROP_FOREIGN_KEY, INSERT)) {
            assertEquals(DO, incompatible.decide("a", "t", t, "x"), t.yamlName() + " is not in DM's set as DM types it");
        }
        EventFilter defaults = filter(rule("a", null, List.of(EventType.MODIFY_DEFAULT_VALUE), List.of(), IGNORE));
        assertEquals(IGNORE, defaults.decide("a", "t", EventType.SET_DEFAULT_VALUE, "ALTER TABLE t ALTER c SET DEFAULT 1"));
        EventFilter onlyAdd = filter(rule("a", null, List.of(EventType.ADD_COLUMN), List.of(), DO));
        assertEquals(DO, onlyAdd.decide("a", "t", EventType.ADD_COLUMN, "x"));
        assertEquals(IGNORE, onlyAdd.decide("a", "t", EventType.DROP_COLUMN, "x"), "Do is an allow-list");
    }

    @Test
    void eventSets() {
        EventFilter dml = filter(rule("a", null, List.of(EventType.ALL_DML), List.of(), IGNORE));
        assertEquals(IGNORE, dml.decide("a", "t", UPDATE, null));
        assertEquals(DO, dml.decide("a", "t", ALTER_TABLE, "ALTER TABLE t ADD c INT"));
        EventFilter ddl = filter(rule("a", null, List.of(EventType.ALL_DDL), List.of(), IGNORE));
        assertEquals(IGNORE, ddl.decide("a", "t", OTHER_DDL, "CREATE TRIGGER x"));
        assertEquals(DO, ddl.decide("a", "t", DELETE, null));
        EventFilter all = filter(rule("a", null, List.of(EventType.ALL), List.of(), IGNORE));
        assertEquals(IGNORE, all.decide("a", "t", INSERT, null));
        EventFilter none = filter(rule("a", null, List.of(EventType.NONE), List.of(), IGNORE));
        assertEquals(DO, none.decide("a", "t", INSERT, null));
    }

    @Test
    void doRulesAreAnAllowListForWhatTheyMatch() {
        EventFilter f = filter(rule("shop", "*", List.of(INSERT, UPDATE), List.of(), DO));
        assertEquals(DO, f.decide("shop", "t", INSERT, null));
        assertEquals(IGNORE, f.decide("shop", "t", DELETE, null));
        assertEquals(IGNORE, f.decide("shop", "t", ALTER_TABLE, "ALTER TABLE t ADD c INT"));
        assertEquals(DO, f.decide("crm", "t", DELETE, null), "tables no Do rule matches are not restricted");
    }

    @Test
    void severalDoRulesAllowTheUnionOfTheirEvents() {
        EventFilter f = filter(rule("shop", null, List.of(INSERT), List.of(), DO),
                rule("shop", "t", List.of(DELETE), List.of(), DO));
        assertEquals(DO, f.decide("shop", "t", DELETE, null));
        assertEquals(DO, f.decide("shop", "t", INSERT, null));
        assertEquals(IGNORE, f.decide("shop", "u", DELETE, null));
    }

    @Test
    void ignoreBeatsErrorBeatsDo() {
        EventFilter f = filter(
                rule("shop", null, List.of(EventType.ALL_DDL), List.of(), ERROR),
                rule("shop", "tmp_*", List.of(DROP_TABLE), List.of(), IGNORE),
                rule("shop", null, List.of(EventType.ALL), List.of(), DO));
        assertEquals(ERROR, f.decide("shop", "orders", DROP_TABLE, "DROP TABLE orders"));
        assertEquals(IGNORE, f.decide("shop", "tmp_1", DROP_TABLE, "DROP TABLE tmp_1"),
                "a narrow Ignore carves an exception out of a broad Error");
        assertEquals(DO, f.decide("shop", "orders", INSERT, null));
    }

    @Test
    void schemaLevelStatementsSeeOnlyRulesWithoutTableOrMatchingAnEmptyName() {
        EventFilter f = filter(rule("shop", "orders", List.of(DROP_DATABASE), List.of(), IGNORE),
                rule("crm", null, List.of(DROP_DATABASE), List.of(), ERROR),
                rule("hr", "*", List.of(CREATE_DATABASE), List.of(), IGNORE));
        assertEquals(DO, f.decide("shop", "", DROP_DATABASE, "DROP DATABASE shop"));
        assertEquals(ERROR, f.decide("crm", null, DROP_DATABASE, "DROP DATABASE crm"));
        assertEquals(IGNORE, f.decide("hr", "", CREATE_DATABASE, "CREATE DATABASE hr"), "* matches the empty name");
    }

    @Test
    void caseSensitivity() {
        FilterConfig r = rule("Shop", "T", List.of(INSERT), List.of(), IGNORE);
        assertEquals(IGNORE, EventFilter.of(List.of(r), false).decide("SHOP", "t", INSERT, null));
        assertEquals(DO, EventFilter.of(List.of(r), true).decide("SHOP", "t", INSERT, null));
    }

    @Test
    void setsAreNotEventTypes() {
        EventFilter f = EventFilter.of(List.of(), false);
        assertThrows(IllegalArgumentException.class, () -> f.decide("a", "b", EventType.ALL_DML, null));
    }

    @Test
    void eventTypeNames() {
        assertEquals(Optional.of(EventType.ALL_DML), EventType.fromYamlName("All DML"));
        assertEquals(Optional.of(CREATE_DATABASE), EventType.fromYamlName("create schema"));
        assertEquals(Optional.of(EventType.CREATE_INDEX), EventType.fromYamlName("add index"));
        assertEquals(Optional.empty(), EventType.fromYamlName("insrt"));
        assertTrue(CREATE_TABLE.isDdl());
        assertFalse(CREATE_TABLE.isDml());
        assertFalse(EventType.NONE_DML.isConcrete());
    }

    private static EventFilter filter(FilterConfig... rules) {
        return EventFilter.of(List.of(rules), false);
    }

    private static FilterConfig rule(String schema, String table, List<EventType> events, List<String> sql,
                                     Action action) {
        return new FilterConfig("r", schema, Optional.ofNullable(table), events, sql, action);
    }
}
