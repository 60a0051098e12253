package io.jdm.common.config;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Binlog event types by DM's names. The first six are sets used in rules ({@code all dml},
 * {@code none} ...); the rest are what sync reports for an event. {@link #OTHER_DDL} is jdm's name
 * for a DDL outside DM's list (ALTER DATABASE, CREATE PROCEDURE ...): {@code all} and
 * {@code all ddl} cover it, and {@code sql-pattern} can single it out.
 */
public enum EventType {
    ALL("all", Kind.SET),
    ALL_DML("all dml", Kind.SET),
    ALL_DDL("all ddl", Kind.SET),
    NONE("none", Kind.SET),
    NONE_DDL("none ddl", Kind.SET),
    NONE_DML("none dml", Kind.SET),
    INSERT("insert", Kind.DML),
    UPDATE("update", Kind.DML),
    DELETE("delete", Kind.DML),
    CREATE_DATABASE("create database", Kind.DDL),
    DROP_DATABASE("drop database", Kind.DDL),
    CREATE_TABLE("create table", Kind.DDL),
    DROP_TABLE("drop table", Kind.DDL),
    TRUNCATE_TABLE("truncate table", Kind.DDL),
    RENAME_TABLE("rename table", Kind.DDL),
    ALTER_TABLE("alter table", Kind.DDL),
    CREATE_INDEX("create index", Kind.DDL),
    DROP_INDEX("drop index", Kind.DDL),
    CREATE_VIEW("create view", Kind.DDL),
    DROP_VIEW("drop view", Kind.DDL),
    OTHER_DDL("other ddl", Kind.DDL);

    private enum Kind { SET, DML, DDL }

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

    EventType(String yamlName, Kind kind) {
        this.yamlName = yamlName;
        this.kind = kind;
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
        return kind == Kind.DDL;
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
            case NONE, NONE_DDL, NONE_DML -> false;
            default -> this == event;
        };
    }
}
