package io.jdm.sync.reader;

import io.jdm.common.config.EventType;
import io.jdm.common.schema.Column;
import io.jdm.common.schema.TableSchema;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The type DM gives a MODIFY or CHANGE clause, from the column before and after it (the schema
 * tracker's copy on each side of the statement), in DM's order: a change of the stored values
 * first (a narrower integer or sign: {@code value range decrease}; fewer digits: {@code precision
 * decrease}; a shorter string or another type: {@code modify column}), then a column leaving the
 * AUTO_INCREMENT removed, the column leaving the primary key or a unique key (one whose columns
 * are all NOT NULL), its default, charset, collation, place (FIRST / AFTER), name; else
 * {@code alter table}. DM reads keys from TiDB's column flags, so after a separate
 * {@code ADD UNIQUE (c)}, a MODIFY of c without UNIQUE is {@code drop unique key} in DM; here the
 * key is still there, as it is on MySQL.
 */
final class ColumnChanges {
    private static final Map<String, Integer> INT_BYTES = Map.of("tinyint", 1, "smallint", 2, "mediumint", 3,
            "int", 4, "integer", 4, "bigint", 8);
    private static final Map<String, Long> TEXT_BYTES = Map.of("tinytext", 255L, "text", 65_535L,
            "mediumtext", 16_777_215L, "longtext", 4_294_967_295L, "tinyblob", 255L, "blob", 65_535L,
            "mediumblob", 16_777_215L, "longblob", 4_294_967_295L);
    private static final Pattern ARGS = Pattern.compile("\\((\\d+)(?:,(\\d+))?\\)");

    private ColumnChanges() {
    }

    /** What information_schema says of a column besides its type: its default (null: none) and AUTO_INCREMENT. */
    record Facts(String defaultValue, boolean autoIncrement) {
    }

    /** A table as the tracker has it: its definition and, by lower-case column name, the facts above. */
    record Shape(TableSchema schema, Map<String, Facts> facts) {
        Facts of(Column c) {
            return facts.get(c.name().toLowerCase(Locale.ROOT));
        }
    }

    /** @return DM's type of the clause; {@code alter table} when either side is unknown */
    static EventType type(AlterClauses.ColumnChange c, Shape was, Shape is) {
        TableSchema before = was == null ? null : was.schema();
        TableSchema after = is == null ? null : is.schema();
        Column old = before == null ? null : before.column(c.from()).orElse(null);
        Column now = after == null ? null : after.column(c.to()).orElse(null);
        if (old == null || now == null) {
            return EventType.ALTER_TABLE;
        }
        EventType values = values(old, now);
        if (values != null) {
            return values;
        }
        Facts f = was.of(old);
        Facts g = is.of(now);
        if (f != null && g != null && f.autoIncrement() && !g.autoIncrement()) {
            return EventType.REMOVE_AUTO_INCREMENT;
        }
        if (inKey(before.primaryKey(), old) && !inKey(after.primaryKey(), now)) {
            return EventType.DROP_PRIMARY_KEY;
        }
        if (before.uniqueKeys().stream().anyMatch(k -> inKey(k, old))
                && after.uniqueKeys().stream().noneMatch(k -> inKey(k, now))) {
            return EventType.DROP_UNIQUE_KEY;
        }
        if (f != null && g != null && !java.util.Objects.equals(f.defaultValue(), g.defaultValue())) {
            return EventType.MODIFY_DEFAULT_VALUE;
        }
        if (!same(old.charset(), now.charset())) {
            return EventType.MODIFY_CHARSET;
        }
        if (!same(old.collation(), now.collation())) {
            return EventType.MODIFY_COLLATION;
        }
        if (c.moves()) {
            return EventType.MODIFY_COLUMNS_ORDER;
        }
        if (!old.name().equalsIgnoreCase(now.name())) {
            return EventType.RENAME_COLUMN;
        }
        return EventType.ALTER_TABLE;
    }

    /** How the stored values change, or null when they keep their range and form. */
    private static EventType values(Column old, Column now) {
        String a = old.columnType().toLowerCase(Locale.ROOT);
        String b = now.columnType().toLowerCase(Locale.ROOT);
        if (a.equals(b)) {
            return null;
        }
        if (old.isIntegral() && now.isIntegral()) {
            boolean narrower = INT_BYTES.get(now.dataType()) < INT_BYTES.get(old.dataType());
            return narrower || old.unsigned() != now.unsigned() ? EventType.VALUE_RANGE_DECREASE : null;
        }
        if (decimal(old) && decimal(now)) {
            long[] p = args(a);
            long[] q = args(b);
            boolean fewer = q[1] < p[1] || q[0] - q[1] < p[0] - p[1];
            return fewer || old.unsigned() != now.unsigned() ? EventType.PRECISION_DECREASE : null;
        }
        if (stringy(old) && stringy(now) && old.isBinary() == now.isBinary()) {
            return length(now, b) < length(old, a) ? EventType.MODIFY_COLUMN : null;
        }
        return EventType.MODIFY_COLUMN;
    }

    private static boolean inKey(List<String> key, Column c) {
        return key.stream().anyMatch(k -> k.equalsIgnoreCase(c.name()));
    }

    private static boolean same(String a, String b) {
        return a == null ? b == null : a.equalsIgnoreCase(b);
    }

    private static boolean decimal(Column c) {
        return c.dataType().equals("decimal") || c.dataType().equals("numeric");
    }

    private static boolean stringy(Column c) {
        return switch (c.dataType()) {
            case "char", "varchar", "binary", "varbinary" -> true;
            default -> TEXT_BYTES.containsKey(c.dataType());
        };
    }

    /** Characters (or bytes) a string column holds: its declared length, or its TEXT/BLOB size. */
    private static long length(Column c, String type) {
        Long text = TEXT_BYTES.get(c.dataType());
        return text != null ? text : args(type)[0];
    }

    /** (M, D) of {@code type(M,D)}; (10, 0) for a bare DECIMAL. */
    private static long[] args(String type) {
        Matcher m = ARGS.matcher(type);
        if (!m.find()) {
            return new long[] {10, 0};
        }
        return new long[] {Long.parseLong(m.group(1)), m.group(2) == null ? 0 : Long.parseLong(m.group(2))};
    }
}
