package io.jdm.sync.reader;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventMetadata;
import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import io.jdm.common.error.FatalException;
import io.jdm.common.filter.ExpressionFilter;
import io.jdm.common.schema.Column;
import io.jdm.common.schema.SchemaReader;
import io.jdm.common.sql.TableName;
import io.jdm.sync.ring.TableInfo;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decoders of selected source tables, built from the {@link SchemaTracker}'s definition at the
 * current binlog position and checked against every TABLE_MAP event: column types that differ
 * mean the model is wrong, so the source's current definition is tried once, and if that does not
 * fit either the unit stops rather than misalign values. A CHAR or VARCHAR column's byte length in
 * the TABLE_MAP is its length times its charset's bytes per character, so a copy whose column has
 * another charset than the source's (a latin1 shard copied from a utf8mb4 merged target table) is
 * caught the same way and read from the source instead; where the TABLE_MAP carries every text
 * column's collation (binlog_row_metadata MINIMAL or FULL), those are compared, which also covers
 * TEXT columns. Shadow tables of online schema changes
 * are not decoded (their DML is not replicated). Reader thread only.
 */
final class TableCache implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TableCache.class);

    /**
     * A table ready for decoding: its info, one converter per column, and its expression filter
     * rules bound to this definition (null: none).
     */
    record Decoder(TableInfo info, byte[] types, Function<Object, Object>[] converters,
                   ExpressionFilter.TableRows rowFilter) {
    }

    private final SchemaTracker tracker;
    private final SourceCatalog catalog;
    private final BiPredicate<String, String> selected;
    private final UnaryOperator<TableName> router;
    /** The tables of an online schema change tool, whose rows are never replicated. */
    private final Predicate<TableName> shadow;
    private final ExpressionFilter rowFilter;
    private final Map<TableName, Decoder> decoders = new HashMap<>();

    TableCache(SchemaTracker tracker, SourceCatalog catalog, BiPredicate<String, String> selected,
               UnaryOperator<TableName> router, Predicate<TableName> shadow, ExpressionFilter rowFilter) {
        this.tracker = tracker;
        this.catalog = catalog;
        this.selected = selected;
        this.router = router;
        this.shadow = shadow;
        this.rowFilter = rowFilter;
    }

    /** Reads what the tracker needs from the source before the stream opens. */
    void prepare() {
        tracker.readSourceDefaults();
    }

    /** The table as the pipeline sees it now: its known definition, its target and the target's engine. */
    private TableInfo info(TableName name) {
        TableName target = router.apply(name);
        return TableInfo.of(tracker.schema(name), target, tracker.targetHasMoreColumns(name))
                .withTargetOutsideTransactions(tracker.outsideTransactions(target))
                .withExtra(tracker.extraColumns(name));
    }

    /** The decoder for this TABLE_MAP, or null when the table is not replicated. */
    Decoder decoder(TableMapEventData tm) {
        TableName name = new TableName(tm.getDatabase(), tm.getTable());
        if (!selected.test(tm.getDatabase(), tm.getTable()) || shadow.test(name)) {
            return null;
        }
        byte[] types = tm.getColumnTypes();
        Decoder d = decoders.get(name);
        if (d != null && Arrays.equals(d.types(), types)) {
            return d;
        }
        TableInfo info = info(name);
        List<String> names = columnNames(tm);
        if (!fits(info, types) && info.columnCount() > types.length && names != null) {
            List<String> extra = tracker.narrowToBinlogColumns(name, names);
            if (!extra.isEmpty()) {
                LOG.info("sync: {} has columns its source table {} lacks ({}): they keep their own values",
                        info.target(), name, String.join(", ", extra));
                info = info(name);
            }
        }
        int charsetMismatch = fits(info, types) ? firstColumnInAnotherCharset(info, tm) : -1;
        if ((!fits(info, types) || charsetMismatch >= 0) && tracker.reloadFromSource(name)) {
            LOG.warn("sync: the known definition of {} does not match its binlog rows{}; using the source's "
                    + "current definition", name, charsetMismatch < 0 ? "" : " (column "
                    + info.column(charsetMismatch).name() + " has another charset than on the source)");
            info = info(name);
            charsetMismatch = fits(info, types) ? firstColumnInAnotherCharset(info, tm) : -1;
        }
        if (charsetMismatch >= 0) {
            Column c = info.column(charsetMismatch);
            throw new FatalException("sync: column " + c.name() + " of " + name + " is " + c.columnType() + " "
                    + c.charset() + " in the known definition, but its binlog rows are in another charset at this "
                    + "position; make the target table match the source or restart the task from a fresh dump");
        }
        if (!fits(info, types)) {
            String kind = tracker.uncopiedKind(name);
            if (kind != null) {
                throw new FatalException("sync: " + SchemaReader.uncopiedLine(Map.of(name, kind), 1));
            }
            int i = BinlogTypes.firstMismatch(info, types);
            throw new FatalException("sync: table " + name + " does not match its binlog rows at this position ("
                    + (info.columnCount() != types.length ? info.columnCount() + " columns known, " + types.length
                    + " in the binlog" : "column " + info.column(i).name() + " is " + info.column(i).columnType()
                    + ", binlog type " + (types[i] & 0xFF)) + "): the target table " + info.target()
                    + " differs from the source table as it was at this position; make them match or restart "
                    + "the task from a fresh dump" + (info.columnCount() > types.length && names == null
                    ? " (a target table may have extra columns when the source logs column names: "
                    + "binlog_row_metadata=FULL)" : ""));
        }
        if (info.keyless()) {
            LOG.warn("sync: table {} has no primary key or NOT NULL unique key: its changes are applied "
                    + "row by row with every column in the WHERE clause", name);
        }
        warnJsonAsText(info, types);
        d = build(info, types);
        decoders.put(name, d);
        return d;
    }

    /** MySQL JSON into a text column (MariaDB's JSON): the text arrives, its DECIMAL, DATE, … types do not. */
    private static void warnJsonAsText(TableInfo info, byte[] types) {
        for (int i = 0; i < types.length; i++) {
            if ((types[i] & 0xFF) == ColumnType.JSON.getCode() && !"json".equals(info.column(i).dataType())) {
                LOG.warn("sync: MySQL JSON column {} of {} goes to {} {}, which keeps the text MySQL prints, not "
                        + "the types of its values (DECIMAL, DATE, TIME, …)", info.column(i).name(), info.source(),
                        info.column(i).columnType(), info.target());
            }
        }
    }

    /** The binlog's column names (binlog_row_metadata=FULL), or null when the TABLE_MAP carries none. */
    private static List<String> columnNames(TableMapEventData tm) {
        TableMapEventMetadata md = tm.getEventMetadata();
        List<String> names = md == null ? null : md.getColumnNames();
        return names == null || names.size() != tm.getColumnTypes().length ? null : names;
    }

    /**
     * The first CHAR/VARCHAR column whose byte length in the TABLE_MAP is not its length in
     * characters times its charset's bytes per character, or -1.
     */
    private int firstColumnInAnotherCharset(TableInfo info, TableMapEventData tm) {
        int[] logged = loggedCollations(tm);
        if (logged != null) {
            return firstCharsetMismatch(info, logged);
        }
        for (int i = 0; i < info.columnCount(); i++) {
            Column c = info.column(i);
            int max = c.charset() == null ? 0 : catalog.maxBytes(c.charset());
            int bytes = byteLength(tm, i);
            if (max == 0 || bytes < 0 || !(c.dataType().equals("char") || c.dataType().equals("varchar"))) {
                continue;
            }
            if ((long) characters(c.columnType()) * max != bytes) {
                return i;
            }
        }
        return -1;
    }

    /** The first text column whose charset is not the one its TABLE_MAP collation belongs to, or -1. */
    private int firstCharsetMismatch(TableInfo info, int[] logged) {
        for (int i = 0; i < logged.length && i < info.columnCount(); i++) {
            SourceCatalog.Collation source = logged[i] < 0 ? null : catalog.collation(logged[i]);
            if (source == null) {
                continue;
            }
            Column c = info.column(i);
            String known = c.charset() == null ? "binary" : c.charset();
            if (!known.equals(source.charset())) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The collation id of every column as the TABLE_MAP's optional metadata gives it (-1 for a
     * column that is not text), or null when it carries none. Text columns are the CHAR, VARCHAR and
     * BLOB/TEXT types, ENUM and SET apart, in column order; their collations come as one default
     * with exceptions, or as one list.
     */
    static int[] loggedCollations(TableMapEventData tm) {
        TableMapEventMetadata md = tm.getEventMetadata();
        if (md == null || (md.getDefaultCharset() == null && md.getColumnCharsets() == null)) {
            return null;
        }
        byte[] types = tm.getColumnTypes();
        int[] out = new int[types.length];
        int text = 0;
        for (int i = 0; i < types.length; i++) {
            out[i] = -1;
            if (!isText(types[i] & 0xFF, tm.getColumnMetadata()[i])) {
                continue;
            }
            if (md.getColumnCharsets() != null) {
                if (text >= md.getColumnCharsets().size()) {
                    return null;
                }
                out[i] = md.getColumnCharsets().get(text);
            } else {
                Integer exception = md.getDefaultCharset().getCharsetCollations() == null ? null
                        : md.getDefaultCharset().getCharsetCollations().get(text);
                out[i] = exception != null ? exception : md.getDefaultCharset().getDefaultCharsetCollation();
            }
            text++;
        }
        return out;
    }

    private static boolean isText(int type, int meta) {
        if (type == ColumnType.STRING.getCode()) {
            int real = meta >> 8;
            return real != ColumnType.ENUM.getCode() && real != ColumnType.SET.getCode();
        }
        return type == ColumnType.VARCHAR.getCode() || type == ColumnType.VAR_STRING.getCode()
                || type == ColumnType.BLOB.getCode() || type == ColumnType.TINY_BLOB.getCode()
                || type == ColumnType.MEDIUM_BLOB.getCode() || type == ColumnType.LONG_BLOB.getCode();
    }

    /** A CHAR/VARCHAR column's byte length from its TABLE_MAP metadata, or -1 for other types. */
    private static int byteLength(TableMapEventData tm, int i) {
        int type = tm.getColumnTypes()[i] & 0xFF;
        int meta = tm.getColumnMetadata()[i];
        if (type == ColumnType.VARCHAR.getCode() || type == ColumnType.VAR_STRING.getCode()) {
            return meta;
        }
        if (type == ColumnType.STRING.getCode()) {
            int real = meta >> 8;
            if (real == ColumnType.ENUM.getCode() || real == ColumnType.SET.getCode()) {
                return -1;
            }
            // lengths above 255 keep their two high bits, inverted, in the real-type byte
            return (((meta >> 4) & 0x300) ^ 0x300) + (meta & 0xFF);
        }
        return -1;
    }

    private static int characters(String columnType) {
        int open = columnType.indexOf('(');
        int close = columnType.indexOf(')', open + 1);
        return open < 0 || close < 0 ? 1 : Integer.parseInt(columnType.substring(open + 1, close).trim());
    }

    private static boolean fits(TableInfo info, byte[] types) {
        return info.columnCount() == types.length && BinlogTypes.firstMismatch(info, types) < 0;
    }

    @SuppressWarnings("unchecked")
    private Decoder build(TableInfo info, byte[] types) {
        Function<Object, Object>[] conv = new Function[types.length];
        for (int i = 0; i < types.length; i++) {
            conv[i] = ValueConverter.forColumn(info.column(i), types[i] & 0xFF, catalog.printsJsonAs57());
        }
        TableName source = info.source();
        return new Decoder(info, types.clone(), conv,
                rowFilter.forTable(source.schema(), source.table(), info.schema().columns()));
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
