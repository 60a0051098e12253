package io.jdm.common.config;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Binlog event types by DM's names. The first seven are sets used in rules ({@code all dml},
 * {@code none} ...); the rest are what sync reports for an event. An ALTER TABLE is typed per
 * clause ({@code drop column}, {@code modify column} …, else {@code alter table}) as DM types it;
 * as in DM, a rule naming {@code alter table} does not cover a clause with a type of its own. A
 * few clauses have a finer type (TiCDC's) than DM gives them, and rules naming DM's type cover
 * them too: {@code add column} is also {@code alter table}. {@link #OTHER_DDL} is jdm's name
 * for a DDL outside DM's list (ALTER DATABASE, CREATE PROCEDURE ...): {@code all} and
 * {@code all ddl} cover it, and {@code sql-pattern} can single it out.
 */
public enum EventType {
    ALL("all", Kind.SET),
    ALL_DML("all dml", Kind.SET),
    ALL_DDL("all ddl", Kind.SET),
    /** DM's set of the DDL that may lose data or that TiDB may refuse: flagged below. */
    INCOMPATIBLE_DDL_CHANGES("incompatible ddl changes", Kind.SET),
    NONE("none", Kind.SET),
    NONE_DDL("none ddl", Kind.SET),
    NONE_DML("none dml", Kind.SET),
    INSERT("insert", Kind.DML),
    UPDATE("update", Kind.DML),
    DELETE("delete", Kind.DML),
    CREATE_DATABASE("create database", Kind.DDL),
    DROP_DATABASE("drop database", Kind.INCOMPATIBLE),
    CREATE_TABLE("create table", Kind.DDL),
    DROP_TABLE("drop table", Kind.INCOMPATIBLE),
    TRUNCATE_TABLE("truncate table", Kind.INCOMPATIBLE),
    RENAME_TABLE("rename table", Kind.INCOMPATIBLE),
    /** An ALTER TABLE clause with no finer type, or a whole ALTER TABLE whose clauses are not told apart. */
    ALTER_TABLE("alter table", Kind.DDL),
    CREATE_INDEX("create index", Kind.DDL),
    DROP_INDEX("drop index", Kind.INCOMPATIBLE),
    CREATE_VIEW("create view", Kind.DDL),
    DROP_VIEW("drop view", Kind.DDL),
    // Clauses of ALTER TABLE, as DM types them (one ALTER may hold several).
    ADD_COLUMN("add column", Kind.INCOMPATIBLE, ALTER_TABLE),
    DROP_COLUMN("drop column", Kind.INCOMPATIBLE),
    MODIFY_COLUMN("modify column", Kind.INCOMPATIBLE),
    VALUE_RANGE_DECREASE("value range decrease", Kind.INCOMPATIBLE),
    PRECISION_DECREASE("precision decrease", Kind.INCOMPATIBLE),
    RENAME_COLUMN("rename column", Kind.INCOMPATIBLE),
    RENAME_INDEX("rename index", Kind.INCOMPATIBLE),
    DROP_PRIMARY_KEY("drop primary key", Kind.INCOMPATIBLE),
    DROP_UNIQUE_KEY("drop unique key", Kind.INCOMPATIBLE),
    MODIFY_DEFAULT_VALUE("modify default value", Kind.INCOMPATIBLE),
    SET_DEFAULT_VALUE("set default value", Kind.INCOMPATIBLE, MODIFY_DEFAULT_VALUE),
    MODIFY_CONSTRAINT("modify constraint", Kind.INCOMPATIBLE),
    ADD_PRIMARY_KEY("add primary key", Kind.INCOMPATIBLE, MODIFY_CONSTRAINT),
    ADD_FOREIGN_KEY("add foreign key", Kind.INCOMPATIBLE, MODIFY_CONSTRAINT),
    DROP_FOREIGN_KEY("drop foreign key", Kind.INCOMPATIBLE, ALTER_TABLE),
    MODIFY_COLUMNS_ORDER("modify columns order", Kind.INCOMPATIBLE),
    MODIFY_CHARSET("modify charset", Kind.INCOMPATIBLE),
    MODIFY_COLLATION("modify collation", Kind.INCOMPATIBLE),
    REMOVE_AUTO_INCREMENT("remove auto increment", Kind.INCOMPATIBLE),
    MODIFY_STORAGE_ENGINE("modify storage engine", Kind.INCOMPATIBLE),
    MODIFY_TABLE_COMMENT("modify table comment", Kind.INCOMPATIBLE, ALTER_TABLE),
    REBASE_AUTO_ID("rebase auto id", Kind.INCOMPATIBLE, ALTER_TABLE),
    ALTER_INDEX_VISIBILITY("alter index visibility", Kind.INCOMPATIBLE, ALTER_TABLE),
    ADD_TABLE_PARTITION("add table partition", Kind.DDL, ALTER_TABLE),
    DROP_TABLE_PARTITION("drop table partition", Kind.INCOMPATIBLE),
    TRUNCATE_TABLE_PARTITION("truncate table partition", Kind.INCOMPATIBLE),
    REORGANIZE_TABLE_PARTITION("reorganize table partition", Kind.INCOMPATIBLE),
    REBUILD_TABLE_PARTITION("rebuild table partition", Kind.INCOMPATIBLE),
    COALESCE_TABLE_PARTITION("coalesce table partition", Kind.INCOMPATIBLE),
    EXCHANGE_TABLE_PARTITION("exchange table partition", Kind.INCOMPATIBLE),
    ALTER_TABLE_PARTITIONING("alter table partitioning", Kind.INCOMPATIBLE, ALTER_TABLE),
    REMOVE_TABLE_PARTITIONING("remove table partitioning", Kind.INCOMPATIBLE, ALTER_TABLE),
    OTHER_DDL("other ddl", Kind.DDL);

    /** INCOMPATIBLE: a DDL in DM's {@code incompatible ddl changes}. */
    private enum Kind { SET, DML, DDL, INCOMPATIBLE }

    /** Every accepted spelling, including DM's aliases, lower case. */
    private static final Map<String, EventType> BY_NAME = new LinkedHashMap<>();

    static {
        for (EventType t : values()) {
            BY_NAME.put(t.yamlName, t);
        }
        BY_NAME.put("create schema", CREATE_DATABASE);
        BY_NAME.put("drop schema", DROP_DATABASE);
        BY_NAME.put("add index", CREATE_INDEX);
    }

    private final String yamlName;
    private final Kind kind;
    /** The type DM gives this clause where it has no type of its own for it (and rules naming that cover it), or null. */
    private final EventType asInDm;

    EventType(String yamlName, Kind kind) {
        this(yamlName, kind, null);
    }

    EventType(String yamlName, Kind kind, EventType asInDm) {
        this.yamlName = yamlName;
        this.kind = kind;
        this.asInDm = asInDm;
    }

    /** The type a task file names, ignoring case; DM's aliases map to their canonical type. */
    public static Optional<EventType> fromYamlName(String name) {
        return Optional.ofNullable(BY_NAME.get(name.strip().toLowerCase(Locale.ROOT)));
    }

    /** The canonical names, for messages. */
    public static java.util.List<String> yamlNames() {
        return Arrays.stream(values()).map(EventType::yamlName).toList();
    }

    public String yamlName() {
        return yamlName;
    }

    public boolean isDml() {
        return kind == Kind.DML;
    }

    public boolean isDdl() {
        return kind == Kind.DDL || kind == Kind.INCOMPATIBLE;
    }

    /** True for a type an event can have; false for the sets that only rules use. */
    public boolean isConcrete() {
        return kind != Kind.SET;
    }

    /** Whether this rule entry covers an event of the given concrete type. */
    public boolean covers(EventType event) {
        return switch (this) {
            case ALL -> true;
            case ALL_DML -> event.isDml();
            case ALL_DDL -> event.isDdl();
            case INCOMPATIBLE_DDL_CHANGES -> (event.asInDm == null ? event : event.asInDm).kind == Kind.INCOMPATIBLE;
            case NONE, NONE_DDL, NONE_DML -> false;
            default -> this == event || this == event.asInDm;
        };
    }
}
