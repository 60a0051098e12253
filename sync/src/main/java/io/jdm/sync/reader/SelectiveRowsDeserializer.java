package io.jdm.sync.reader;

import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.AbstractRowsEventDataDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.Serializable;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;

/**
 * Rows-event deserializer that decodes only selected tables (the rows of others are skipped as
 * bytes, never turned into objects) and decodes temporal columns straight into MySQL text via
 * {@link TemporalText}. One instance per rows event kind.
 */
final class SelectiveRowsDeserializer extends AbstractRowsEventDataDeserializer<EventData> {
    enum Kind { WRITE, UPDATE, DELETE }

    private final Kind kind;
    private final boolean extraInfo;
    private final Map<Long, TableMapEventData> tableMaps;
    private final BiPredicate<String, String> selected;

    SelectiveRowsDeserializer(Kind kind, boolean extraInfo, Map<Long, TableMapEventData> tableMaps,
                              BiPredicate<String, String> selected) {
        super(tableMaps);
        this.kind = kind;
        this.extraInfo = extraInfo;
        this.tableMaps = tableMaps;
        this.selected = selected;
    }

    @Override
    public EventData deserialize(ByteArrayInputStream in) throws IOException {
        long tableId = in.readLong(6);
        in.skip(2);
        if (extraInfo) {
            int len = in.readInteger(2);
            in.skip(len - 2);
        }
        TableMapEventData map = tableMaps.get(tableId);
        boolean wanted = map != null && selected.test(map.getDatabase(), map.getTable());
        return switch (kind) {
            case WRITE -> write(tableId, wanted, in);
            case UPDATE -> update(tableId, wanted, in);
            case DELETE -> delete(tableId, wanted, in);
        };
    }

    private EventData write(long tableId, boolean wanted, ByteArrayInputStream in) throws IOException {
        WriteRowsEventData d = new WriteRowsEventData();
        d.setTableId(tableId);
        BitSet cols = in.readBitSet(in.readPackedInteger(), true);
        d.setIncludedColumns(cols);
        d.setRows(wanted ? rows(tableId, cols, in) : List.of());
        return d;
    }

    private EventData delete(long tableId, boolean wanted, ByteArrayInputStream in) throws IOException {
        DeleteRowsEventData d = new DeleteRowsEventData();
        d.setTableId(tableId);
        BitSet cols = in.readBitSet(in.readPackedInteger(), true);
        d.setIncludedColumns(cols);
        d.setRows(wanted ? rows(tableId, cols, in) : List.of());
        return d;
    }

    private EventData update(long tableId, boolean wanted, ByteArrayInputStream in) throws IOException {
        UpdateRowsEventData d = new UpdateRowsEventData();
        d.setTableId(tableId);
        int n = in.readPackedInteger();
        BitSet beforeCols = in.readBitSet(n, true);
        BitSet afterCols = in.readBitSet(n, true);
        d.setIncludedColumnsBeforeUpdate(beforeCols);
        d.setIncludedColumns(afterCols);
        List<Map.Entry<Serializable[], Serializable[]>> rows = new ArrayList<>();
        while (wanted && in.available() > 0) {
            Serializable[] before = deserializeRow(tableId, beforeCols, in);
            Serializable[] after = deserializeRow(tableId, afterCols, in);
            rows.add(new AbstractMap.SimpleEntry<>(before, after));
        }
        d.setRows(rows);
        return d;
    }

    private List<Serializable[]> rows(long tableId, BitSet cols, ByteArrayInputStream in) throws IOException {
        List<Serializable[]> rows = new ArrayList<>();
        while (in.available() > 0) {
            rows.add(deserializeRow(tableId, cols, in));
        }
        return rows;
    }

    @Override
    protected Serializable deserializeDate(ByteArrayInputStream in) throws IOException {
        return TemporalText.date(in.readInteger(3));
    }

    @Override
    protected Serializable deserializeYear(ByteArrayInputStream in) throws IOException {
        return TemporalText.year(in.readInteger(1));
    }

    @Override
    protected Serializable deserializeDatetime(ByteArrayInputStream in) throws IOException {
        return TemporalText.datetime1(in.readLong(8));
    }

    @Override
    protected Serializable deserializeDatetimeV2(int meta, ByteArrayInputStream in) throws IOException {
        long packed = bigEndian(in.read(5));
        return TemporalText.datetime2(packed, fraction(meta, in), meta);
    }

    @Override
    protected Serializable deserializeTimestamp(ByteArrayInputStream in) throws IOException {
        return TemporalText.timestamp(in.readLong(4), 0, 0);
    }

    @Override
    protected Serializable deserializeTimestampV2(int meta, ByteArrayInputStream in) throws IOException {
        long seconds = bigEndian(in.read(4));
        return TemporalText.timestamp(seconds, fraction(meta, in), meta);
    }

    @Override
    protected Serializable deserializeTime(ByteArrayInputStream in) throws IOException {
        int v = in.readInteger(3);
        return TemporalText.time1((v << 8) >> 8);
    }

    @Override
    protected Serializable deserializeTimeV2(int meta, ByteArrayInputStream in) throws IOException {
        return TemporalText.time2(bigEndian(in.read(3 + (meta + 1) / 2)), meta);
    }

    /** DATETIME2/TIMESTAMP2 fraction: unsigned big-endian, scaled to microseconds. */
    private static int fraction(int fsp, ByteArrayInputStream in) throws IOException {
        int len = (fsp + 1) / 2;
        if (len == 0) {
            return 0;
        }
        long v = bigEndian(in.read(len));
        return (int) (len == 1 ? v * 10000 : len == 2 ? v * 100 : v);
    }

    static long bigEndian(byte[] b) {
        long v = 0;
        for (byte x : b) {
            v = (v << 8) | (x & 0xFF);
        }
        return v;
    }
}
