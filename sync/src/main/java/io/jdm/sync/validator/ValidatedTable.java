package io.jdm.sync.validator;

import io.jdm.common.filter.ExtraColumns;
import io.jdm.common.schema.Column;
import io.jdm.common.sql.TableName;
import io.jdm.sync.ring.TableInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * What the validator needs of a table: its source and target names, the columns the writers write
 * (generated ones are the target's to compute) and which of them identify a row.
 *
 * @param columns the compared columns, in the source's order
 * @param imageIndex for each compared column, its index in a row image
 * @param key the positions in {@link #columns} of the row's identity (primary key, else the first unique key)
 * @param refusal why rows of this table are not validated (shown as the table's status), or null
 * @param extra the columns the table's route adds to the target (extract-table and its siblings): a
 *     row is looked up on the target by them as well as by its key, as the writers find it
 */
record ValidatedTable(TableName source, TableName target, List<Column> columns, int[] imageIndex, int[] key,
                      String refusal, ExtraColumns extra) {

    static ValidatedTable of(TableInfo t) {
        List<Column> cols = new ArrayList<>();
        int[] image = t.writable().clone();
        for (int i : image) {
            cols.add(t.column(i));
        }
        int[] identity = t.identity();
        int[] key = new int[identity.length];
        String refusal = null;
        if (identity.length == 0) {
            refusal = "no primary key or unique key: a row cannot be found again";
        } else if (t.spool()) {
            refusal = "a shard waiting for a group DDL: its rows are written to a spool first";
        }
        for (int k = 0; k < identity.length && refusal == null; k++) {
            key[k] = -1;
            for (int c = 0; c < image.length; c++) {
                if (image[c] == identity[k]) {
                    key[k] = c;
                }
            }
            if (key[k] < 0) {
                refusal = "its key has a generated column";
            }
        }
        return new ValidatedTable(t.source(), t.target(), List.copyOf(cols), image, key, refusal, t.extra());
    }

    /** The compared columns' values of a row image. */
    Object[] values(Object[] image) {
        Object[] v = new Object[imageIndex.length];
        for (int i = 0; i < v.length; i++) {
            v[i] = image[imageIndex[i]];
        }
        return v;
    }

    /** The key's values of a row image ({@code image} true) or of compared values. */
    Object[] keyOf(Object[] row, boolean image) {
        Object[] k = new Object[key.length];
        for (int i = 0; i < k.length; i++) {
            k[i] = row[image ? imageIndex[key[i]] : key[i]];
        }
        return k;
    }

    /** The key's values of compared values. */
    Object[] keyOf(Object[] values) {
        Object[] k = new Object[key.length];
        for (int i = 0; i < k.length; i++) {
            k[i] = values[key[i]];
        }
        return k;
    }

    List<Column> keyColumns() {
        List<Column> k = new ArrayList<>();
        for (int i : key) {
            k.add(columns.get(i));
        }
        return k;
    }

    Column keyColumn(int i) {
        return columns.get(key[i]);
    }
}
