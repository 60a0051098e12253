package io.jdm.common.schema;

import io.jdm.common.sql.TableName;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * What the server says of each table, read once per table, and once for a whole schema of which
 * many tables are asked for. A read of one table is one or two information_schema statements that
 * name it; for a schema of 1,000 tables those cost the server more than the same statements for the
 * whole schema (MariaDB 11.4: about 4 ms a table for the engine, columns and keys, against 0.3 s for
 * the engines of all 1,000). The {@value #WHOLE_AFTER}th distinct table asked for in a schema has the
 * schema read whole, once; a table not there then (created later) is read on its own.
 *
 * @param <V> what is read of a table
 */
public final class TableReadCache<V> {
    /** Asking for this many tables of one schema has the rest of it read in one go. */
    public static final int WHOLE_AFTER = 16;

    /** How to read one table, or every table of a schema. */
    public interface Reader<V> {
        /** What {@code table} holds; null when it is not there (not kept: asked again next time). */
        V one(Connection c, TableName table) throws SQLException;

        /** Every table of {@code schema}, by name as the server lists it. */
        Map<String, V> whole(Connection c, String schema) throws SQLException;
    }

    private final Reader<V> reader;
    private final Map<TableName, V> known = new ConcurrentHashMap<>();
    /** The tables asked for, by schema. */
    private final Map<String, Set<String>> asked = new ConcurrentHashMap<>();
    private final Set<String> wholeRead = ConcurrentHashMap.newKeySet();

    public TableReadCache(Reader<V> reader) {
        this.reader = reader;
    }

    /**
     * What {@code table} holds, read on {@code c} the first time it is asked for; that read is
     * committed (when {@code c} is not in autocommit), so that the transaction the caller opens next
     * starts after it. Null when the table is not there.
     */
    public V get(Connection c, TableName table) throws SQLException {
        if (known.containsKey(table)) {
            return known.get(table);
        }
        try {
            return read(c, table);
        } finally {
            if (!c.getAutoCommit()) {
                c.commit();
            }
        }
    }

    /**
     * Reads {@code table} on {@code c} unless it is known, leaving the read inside the caller's
     * transaction: for a caller that reads ahead of several caches and commits once.
     */
    public void warm(Connection c, TableName table) throws SQLException {
        if (!known.containsKey(table)) {
            read(c, table);
        }
    }

    /**
     * The schemas of which {@code tables} holds {@value #WHOLE_AFTER} or more: for each, the
     * statements that name every table cost the server more than the same statements for the whole
     * schema.
     */
    public static Set<String> wholeSchemas(Collection<TableName> tables) {
        return tables.stream().collect(Collectors.groupingBy(TableName::schema, Collectors.toSet())).entrySet()
                .stream().filter(e -> e.getValue().size() >= WHOLE_AFTER).map(Map.Entry::getKey)
                .collect(Collectors.toSet());
    }

    /**
     * What those of {@code tables} in a {@link #wholeSchemas whole-read schema} hold, each such
     * schema read whole once; the others are left out, and so is a table not in its schema's listing.
     */
    public static <V> Map<TableName, V> readWhole(Connection c, Collection<TableName> tables, Reader<V> reader)
            throws SQLException {
        Set<String> whole = wholeSchemas(tables);
        Set<TableName> selected = new HashSet<>(tables);
        Map<TableName, V> out = new HashMap<>();
        for (String schema : whole) {
            for (Map.Entry<String, V> e : reader.whole(c, schema).entrySet()) {
                TableName t = new TableName(schema, e.getKey());
                if (selected.contains(t)) { // the schema's other tables are not kept
                    out.put(t, e.getValue());
                }
            }
        }
        return out;
    }

    /**
     * What each of {@code tables} holds: {@link #readWhole}, then the rest table by table. A table
     * not there is left out.
     */
    public static <V> Map<TableName, V> readEach(Connection c, Collection<TableName> tables, Reader<V> reader)
            throws SQLException {
        Map<TableName, V> out = readWhole(c, tables, reader);
        for (TableName t : tables) {
            if (!out.containsKey(t)) {
                V v = reader.one(c, t);
                if (v != null) {
                    out.put(t, v);
                }
            }
        }
        return out;
    }

    private V read(Connection c, TableName table) throws SQLException {
        String schema = table.schema();
        Set<String> tables = asked.computeIfAbsent(schema, k -> ConcurrentHashMap.newKeySet());
        if (tables.add(table.table()) && tables.size() >= WHOLE_AFTER && wholeRead.add(schema)) {
            reader.whole(c, schema).forEach((name, value) -> known.putIfAbsent(new TableName(schema, name), value));
            V v = known.get(table);
            if (v != null) {
                return v;
            }
        }
        V v = reader.one(c, table);
        if (v != null) {
            known.put(table, v);
        }
        return v;
    }
}
