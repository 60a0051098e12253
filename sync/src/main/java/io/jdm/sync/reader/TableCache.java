package io.jdm.sync.reader;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import io.jdm.common.error.FatalException;
import io.jdm.common.sql.TableName;
import io.jdm.sync.ring.TableInfo;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decoders of selected source tables, built from the {@link SchemaTracker}'s definition at the
 * current binlog position and checked against every TABLE_MAP event: column types that differ
 * mean the model is wrong, so the source's current definition is tried once, and if that does not
 * fit either the unit stops rather than misalign values. Shadow tables of online schema changes
 * are not decoded (their DML is not replicated). Reader thread only.
 */
final class TableCache implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TableCache.class);

    /** A table ready for decoding: its info and one converter per column. */
    record Decoder(TableInfo info, byte[] types, Function<Object, Object>[] converters) {
    }

    private final SchemaTracker tracker;
    private final BiPredicate<String, String> selected;
    private final UnaryOperator<TableName> router;
    private final boolean onlineDdl;
    private final Map<TableName, Decoder> decoders = new HashMap<>();

    TableCache(SchemaTracker tracker, BiPredicate<String, String> selected, UnaryOperator<TableName> router,
               boolean onlineDdl) {
        this.tracker = tracker;
        this.selected = selected;
        this.router = router;
        this.onlineDdl = onlineDdl;
    }

    /** The decoder for this TABLE_MAP, or null when the table is not replicated. */
    Decoder decoder(TableMapEventData tm) {
        TableName name = new TableName(tm.getDatabase(), tm.getTable());
        if (!selected.test(tm.getDatabase(), tm.getTable()) || (onlineDdl && OnlineDdl.isShadow(name))) {
            return null;
        }
        byte[] types = tm.getColumnTypes();
        Decoder d = decoders.get(name);
        if (d != null && Arrays.equals(d.types(), types)) {
            return d;
        }
        TableInfo info = TableInfo.of(tracker.schema(name), router.apply(name));
        if (!fits(info, types) && tracker.reloadFromSource(name)) {
            LOG.warn("sync: the known definition of {} does not match its binlog rows; using the source's "
                    + "current definition", name);
            info = TableInfo.of(tracker.schema(name), router.apply(name));
        }
        if (!fits(info, types)) {
            int i = BinlogTypes.firstMismatch(info, types);
            throw new FatalException("sync: table " + name + " does not match its binlog rows at this position ("
                    + (info.columnCount() != types.length ? info.columnCount() + " columns known, " + types.length
                    + " in the binlog" : "column " + info.column(i).name() + " is " + info.column(i).columnType()
                    + ", binlog type " + (types[i] & 0xFF)) + "): the target table " + info.target()
                    + " differs from the source table as it was at this position; make them match or restart "
                    + "the task from a fresh dump");
        }
        if (info.keyless()) {
            LOG.warn("sync: table {} has no primary key or NOT NULL unique key: its changes are applied "
                    + "row by row with every column in the WHERE clause", name);
        }
        d = build(info, types);
        decoders.put(name, d);
        return d;
    }

    private static boolean fits(TableInfo info, byte[] types) {
        return info.columnCount() == types.length && BinlogTypes.firstMismatch(info, types) < 0;
    }

    @SuppressWarnings("unchecked")
    private static Decoder build(TableInfo info, byte[] types) {
        Function<Object, Object>[] conv = new Function[types.length];
        for (int i = 0; i < types.length; i++) {
            conv[i] = ValueConverter.forColumn(info.column(i), types[i] & 0xFF);
        }
        return new Decoder(info, types.clone(), conv);
    }

    /** Forgets every decoder after DDL: the next TABLE_MAP of each table builds one from the new model. */
    void invalidateAll() {
        decoders.clear();
    }

    @Override
    public void close() {
        tracker.close();
    }
}
