package io.jdm.cli.check;

import io.jdm.common.config.ShardMode;
import io.jdm.common.schema.SchemaReader;
import io.jdm.common.sql.TableName;
import io.jdm.sync.shard.TableShape;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * DM's auto_increment_ID: when routes merge several source tables (shards, on one source or
 * several) into one target table, a shard whose AUTO_INCREMENT column is part of a primary or
 * unique key numbers its rows 1, 2, 3... like every other shard, so their keys collide in the
 * merged table and one shard's row replaces another's. A warning, as DM gives: the keys may have
 * been made disjoint by the application (auto_increment_offset, ranges), which no schema shows.
 */
final class ShardChecks {
    static final String ITEM = "auto_increment_ID";
    /** DM's check that a merged table's shards are alike (pessimistic) or joinable (optimistic). */
    static final String SCHEMA_ITEM = "schema_of_shard_tables";

    private ShardChecks() {
    }

    /**
     * One selected source table, the target table its route gives, and its AUTO_INCREMENT keys as
     * {@code PRIMARY (id)}; empty when it has none.
     */
    record Shard(String source, TableName table, TableName target, List<String> autoIncrementKeys,
                 TableShape shape) {
        String label() {
            return source + " " + table;
        }
    }

    /** The selected tables of one source with their routed target and AUTO_INCREMENT keys. */
    static List<Shard> collect(ServerFacts f, PrecheckInput.Source s, boolean shapes) throws SQLException {
        List<TableName> tables = SourceChecks.tables(f, s);
        SchemaReader.SchemaCondition in = SchemaReader.schemasOf("TABLE_SCHEMA", tables);
        Map<TableName, Set<String>> autoColumns = new HashMap<>();
        Map<TableName, Map<String, List<String>>> uniqueKeys = new HashMap<>();
        if (!in.selectsNone()) {
            try (PreparedStatement ps = f.connection.prepareStatement("SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME"
                    + " FROM information_schema.COLUMNS WHERE EXTRA LIKE '%auto_increment%' AND " + in.sql())) {
                in.bind(ps, 1);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        autoColumns.computeIfAbsent(new TableName(rs.getString(1), rs.getString(2)),
                                t -> new HashSet<>()).add(rs.getString(3).toLowerCase(Locale.ROOT));
                    }
                }
            }
            // Unique keys (the primary key included) of the tables with an AUTO_INCREMENT column, in key order.
            try (PreparedStatement ps = f.connection.prepareStatement("SELECT TABLE_SCHEMA, TABLE_NAME, INDEX_NAME,"
                    + " COLUMN_NAME FROM information_schema.STATISTICS WHERE NON_UNIQUE = 0 AND " + in.sql()
                    + " ORDER BY TABLE_SCHEMA, TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX")) {
                in.bind(ps, 1);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        TableName t = new TableName(rs.getString(1), rs.getString(2));
                        if (autoColumns.containsKey(t)) {
                            uniqueKeys.computeIfAbsent(t, k -> new LinkedHashMap<>())
                                    .computeIfAbsent(rs.getString(3), k -> new ArrayList<>()).add(rs.getString(4));
                        }
                    }
                }
            }
        }
        List<Shard> out = new ArrayList<>();
        for (TableName t : tables) {
            List<String> keys = new ArrayList<>();
            Set<String> auto = autoColumns.getOrDefault(t, Set.of());
            uniqueKeys.getOrDefault(t, Map.of()).forEach((index, cols) -> {
                if (cols.stream().anyMatch(c -> auto.contains(c.toLowerCase(Locale.ROOT)))) {
                    keys.add(index + " (" + String.join(", ", cols) + ")");
                }
            });
            out.add(new Shard(s.id(), t, s.router().apply(t), keys, shapes ? TableShape.read(f.connection, t) : null));
        }
        return out;
    }

    /**
     * In a shard mode, one failure per target table whose shards cannot be merged as the mode needs:
     * pessimistic, every shard has the same columns (type, nullability, default) and keys, since each
     * group DDL runs once for all of them; optimistic, their tables join (see {@link TableShape#join}).
     * A pass line when every merged table is fine; nothing without merges or without a shard mode.
     */
    static List<CheckResult> schemas(List<Shard> shards, ShardMode mode) {
        if (mode == ShardMode.NONE) {
            return List.of();
        }
        Map<TableName, List<Shard>> merges = merges(shards.stream().filter(s -> s.shape() != null).toList());
        List<CheckResult> out = new ArrayList<>();
        for (Map.Entry<TableName, List<Shard>> e : merges.entrySet()) {
            List<Shard> group = e.getValue();
            String problem = null;
            if (mode == ShardMode.PESSIMISTIC) {
                Shard first = group.get(0);
                for (Shard s : group.subList(1, group.size())) {
                    if (!s.shape().sameAs(first.shape())) {
                        problem = first.label() + " and " + s.label() + " differ (" + first.shape().diff(s.shape())
                                + "); in shard-mode pessimistic every shard of a merged table needs the same columns "
                                + "and keys: align the shards, or use shard-mode optimistic";
                        break;
                    }
                }
            } else {
                try {
                    TableShape.join(group.stream().map(Shard::shape).toList(), group.stream().map(Shard::label)
                            .toList());
                } catch (TableShape.Conflict c) {
                    problem = "the shards cannot be merged: " + c.getMessage() + "; make them compatible";
                }
            }
            if (problem != null) {
                out.add(CheckResult.fail(SCHEMA_ITEM, "target", "target table " + e.getKey() + ": " + problem));
            }
        }
        if (!merges.isEmpty() && out.isEmpty()) {
            out.add(CheckResult.pass(SCHEMA_ITEM, "target", merges.size() + " target tables merge several shards; their "
                    + "tables " + (mode == ShardMode.PESSIMISTIC ? "are alike" : "join")));
        }
        return out;
    }

    /**
     * One line per target table that several shards fill and at least one of them has an
     * AUTO_INCREMENT key; a pass line when merges exist and none has; nothing without merges.
     */
    static List<CheckResult> autoIncrement(List<Shard> shards) {
        Map<TableName, List<Shard>> merges = merges(shards);
        List<CheckResult> out = new ArrayList<>();
        for (Map.Entry<TableName, List<Shard>> e : merges.entrySet()) {
            List<Shard> group = e.getValue();
            List<String> withAuto = new ArrayList<>();
            for (Shard s : group) {
                if (!s.autoIncrementKeys().isEmpty()) {
                    withAuto.add(s.label() + " key " + String.join(", ", s.autoIncrementKeys()));
                }
            }
            if (withAuto.isEmpty()) {
                continue;
            }
            out.add(CheckResult.warn(ITEM, "target", "target table " + e.getKey() + " merges " + group.size()
                    + " shards and " + withAuto.size() + " of them have an AUTO_INCREMENT column in a primary or "
                    + "unique key (" + TableChecks.shown(withAuto) + "): each shard numbers its rows alike, so their "
                    + "keys collide in " + e.getKey() + " and one shard's row replaces another's. Make the key unique "
                    + "across the shards (a different auto_increment_offset or id range per shard), or give the "
                    + "target a composite key with a column that tells the shards apart, or leave the "
                    + "AUTO_INCREMENT column out of the target's keys"));
        }
        if (!merges.isEmpty() && out.isEmpty()) {
            out.add(CheckResult.pass(ITEM, "target", merges.size() + " target tables merge several shards; no shard has "
                    + "an AUTO_INCREMENT column in a primary or unique key"));
        }
        return out;
    }

    /** The target tables that two or more of {@code shards} fill, each with its shards, in order. */
    private static Map<TableName, List<Shard>> merges(List<Shard> shards) {
        Map<TableName, List<Shard>> byTarget = new LinkedHashMap<>();
        for (Shard s : shards) {
            byTarget.computeIfAbsent(s.target(), t -> new ArrayList<>()).add(s);
        }
        byTarget.values().removeIf(group -> group.size() < 2);
        return byTarget;
    }
}
