package io.jdm.sync.reader;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import io.jdm.common.error.FatalException;
import io.jdm.common.error.RetriableException;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.schema.SchemaReader;
import io.jdm.common.schema.TableSchema;
import io.jdm.common.sql.TableName;
import io.jdm.sync.ring.TableInfo;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Schemas of selected source tables, read from the source when first seen and checked against
 * every TABLE_MAP event: a column count that differs means the table changed, so the entry is
 * re-read, and if it still differs the unit stops rather than misalign values. Reader thread only.
 */
final class TableCache implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TableCache.class);

    /** A table ready for decoding: its info and one converter per column. */
    record Decoder(TableInfo info, byte[] types, Function<Object, Object>[] converters) {
    }

    private final ConnectionSpec source;
    private final BiPredicate<String, String> selected;
    private final UnaryOperator<TableName> router;
    private final Map<TableName, TableInfo> infos = new HashMap<>();
    private final Map<TableName, Decoder> decoders = new HashMap<>();
    private Connection conn;

    TableCache(ConnectionSpec source, BiPredicate<String, String> selected, UnaryOperator<TableName> router) {
        this.source = source;
        this.selected = selected;
        this.router = router;
    }

    boolean selected(String db, String table) {
        return selected.test(db, table);
    }

    /** The decoder for this TABLE_MAP, or null when the table is not selected. */
    Decoder decoder(TableMapEventData tm) {
        if (!selected.test(tm.getDatabase(), tm.getTable())) {
            return null;
        }
        TableName name = new TableName(tm.getDatabase(), tm.getTable());
        byte[] types = tm.getColumnTypes();
        Decoder d = decoders.get(name);
        if (d != null && java.util.Arrays.equals(d.types(), types)) {
            return d;
        }
        TableInfo info = infos.get(name);
        if (info == null || info.columnCount() != types.length) {
            info = load(name);
            if (info.columnCount() != types.length || BinlogTypes.firstMismatch(info, types) >= 0) {
                int i = BinlogTypes.firstMismatch(info, types);
                throw new FatalException("sync: table " + name + " on the source no longer matches its binlog rows ("
                        + (info.columnCount() != types.length ? info.columnCount() + " columns now, " + types.length
                        + " in the binlog" : "column " + info.column(i).name() + " is " + info.column(i).columnType()
                        + " now, binlog type " + (types[i] & 0xFF)) + "): its definition changed after this binlog "
                        + "position; restore the matching definition or restart the task from a fresh dump");
            }
            if (!info.keyless()) {
                LOG.debug("sync: table {} keyed by {}", name, info.schema().identityKey());
            } else {
                LOG.warn("sync: table {} has no primary key or NOT NULL unique key: its changes are applied "
                        + "row by row with every column in the WHERE clause", name);
            }
        }
        d = build(info, types);
        decoders.put(name, d);
        return d;
    }

    @SuppressWarnings("unchecked")
    private static Decoder build(TableInfo info, byte[] types) {
        Function<Object, Object>[] conv = new Function[types.length];
        for (int i = 0; i < types.length; i++) {
            conv[i] = ValueConverter.forColumn(info.column(i), types[i] & 0xFF);
        }
        return new Decoder(info, types.clone(), conv);
    }

    /**
     * The target database a DDL on these tables runs in. Rewriting DDL for renamed tables is not
     * done yet, so a route that renames a table (not only its database) stops the unit.
     */
    String targetSchemaForDdl(java.util.List<TableName> tables) {
        String schema = null;
        for (TableName t : tables) {
            TableName routed = router.apply(t);
            if (!routed.table().equals(t.table()) || (schema != null && !schema.equals(routed.schema()))
                    || (!routed.schema().equals(t.schema()) && tables.size() > 1)) {
                throw new FatalException("sync: DDL on " + t + " cannot be applied through the route to " + routed
                        + " yet; apply it on the target by hand and resume from after it");
            }
            schema = routed.schema();
        }
        return schema;
    }

    /** Forgets a table after DDL: the next TABLE_MAP reads its definition again. */
    void invalidate(TableName name) {
        infos.remove(name);
        decoders.remove(name);
    }

    private TableInfo load(TableName name) {
        SQLException last = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            try {
                if (conn == null || !conn.isValid(2)) {
                    closeQuietly();
                    conn = DataSources.connect(source);
                }
                TableSchema schema = SchemaReader.read(conn, name);
                TableInfo info = TableInfo.of(schema, router.apply(name));
                infos.put(name, info);
                return info;
            } catch (SQLException e) {
                last = e;
                if (e.getErrorCode() == 1146) {
                    throw new FatalException("sync: table " + name + " is in the binlog but no longer exists on "
                            + "the source, so its columns are unknown; restart the task from a fresh dump", e);
                }
                closeQuietly();
            }
        }
        throw new RetriableException("sync: cannot read the definition of " + name + " from the source "
                + source.address() + ": " + last.getMessage(), last);
    }

    private void closeQuietly() {
        if (conn != null) {
            try {
                conn.close();
            } catch (SQLException ignored) {
                // the connection is being replaced; its close failing changes nothing
            }
            conn = null;
        }
    }

    @Override
    public void close() {
        closeQuietly();
    }
}
