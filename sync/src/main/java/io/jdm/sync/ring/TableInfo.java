package io.jdm.sync.ring;

import io.jdm.common.filter.ExtraColumns;
import io.jdm.common.schema.Column;
import io.jdm.common.schema.TableSchema;
import io.jdm.common.sql.TableName;
import java.util.ArrayList;
import java.util.List;

/**
 * A source table as the pipeline sees it: its schema at decode time, the target it is routed to,
 * and column indexes of its keys, computed once per schema version.
 *
 * @param keys the primary key first, then every NOT NULL unique key, as column indexes
 * @param writable indexes of the columns written to the target (generated columns excluded)
 * @param targetHasMoreColumns the target table has columns of its own that the source lacks: safe
 *        mode then writes upserts, which keep their values, instead of REPLACE, which resets them
 * @param spool the target is a shard's spool (see {@code io.jdm.sync.shard}): every change is an
 *        upsert of the row's last image, whether in safe mode or not
 * @param targetOutsideTransactions the target table's engine keeps rows outside transactions
 *        (MyISAM, Aria…): what a failed batch wrote stays, so its changes are always written in
 *        safe mode, which writes them again over themselves on the replay
 * @param extra the columns its route adds in the target (DM's extract-table and its siblings), written
 *        with every row image and part of every lookup; the source schema does not have them
 */
public record TableInfo(TableName source, TableName target, TableSchema schema, List<int[]> keys,
                        int[] writable, boolean targetHasMoreColumns, boolean spool,
                        boolean targetOutsideTransactions, ExtraColumns extra) {

    public static TableInfo of(TableSchema schema, TableName target) {
        return of(schema, target, false);
    }

    public static TableInfo of(TableSchema schema, TableName target, boolean targetHasMoreColumns) {
        return of(schema, target, targetHasMoreColumns, false);
    }

    /** This table with what the target's engine says ({@link #targetOutsideTransactions}). */
    public TableInfo withTargetOutsideTransactions(boolean outside) {
        return new TableInfo(source, target, schema, keys, writable, targetHasMoreColumns, spool, outside, extra);
    }

    /** This table with the columns its route adds in the target. */
    public TableInfo withExtra(ExtraColumns e) {
        return new TableInfo(source, target, schema, keys, writable, targetHasMoreColumns, spool,
                targetOutsideTransactions, e);
    }

    /** A shard's rows written to its spool {@code target}, whose schema is the shard's plus the spool's flag. */
    public static TableInfo spool(TableSchema schema, TableName source, TableName target) {
        TableInfo t = of(schema, target, true, true);
        return new TableInfo(source, target, schema, t.keys, t.writable, true, true, false, ExtraColumns.NONE);
    }

    private static TableInfo of(TableSchema schema, TableName target, boolean targetHasMoreColumns, boolean spool) {
        List<int[]> keys = new ArrayList<>();
        if (!schema.primaryKey().isEmpty()) {
            keys.add(indexes(schema, schema.primaryKey()));
        }
        for (List<String> uk : schema.uniqueKeys()) {
            keys.add(indexes(schema, uk));
        }
        List<Column> cols = schema.columns();
        int[] writable = new int[(int) cols.stream().filter(c -> !c.generated()).count()];
        for (int i = 0, w = 0; i < cols.size(); i++) {
            if (!cols.get(i).generated()) {
                writable[w++] = i;
            }
        }
        return new TableInfo(schema.name(), target, schema, List.copyOf(keys), writable, targetHasMoreColumns, spool,
                false, ExtraColumns.NONE);
    }

    private static int[] indexes(TableSchema schema, List<String> names) {
        int[] idx = new int[names.size()];
        for (int i = 0; i < idx.length; i++) {
            String n = names.get(i);
            idx[i] = -1;
            for (int c = 0; c < schema.columns().size(); c++) {
                if (schema.columns().get(c).name().equalsIgnoreCase(n)) {
                    idx[i] = c;
                }
            }
            if (idx[i] < 0) {
                throw new IllegalStateException("key column " + n + " not found in " + schema.name());
            }
        }
        return idx;
    }

    public boolean keyless() {
        return keys.isEmpty();
    }

    /** Column indexes that identify a row: the primary key, else the first unique key, else empty. */
    public int[] identity() {
        return keys.isEmpty() ? new int[0] : keys.get(0);
    }

    public Column column(int index) {
        return schema.columns().get(index);
    }

    public int columnCount() {
        return schema.columns().size();
    }
}
