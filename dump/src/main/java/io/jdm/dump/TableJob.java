package io.jdm.dump;

import io.jdm.common.schema.Column;
import io.jdm.common.schema.TableSchema;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.JsonTextTypes;
import io.jdm.common.sql.ResultSetValues;
import io.jdm.common.sql.TableName;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One table being dumped: its written columns, the SQL text every chunk reuses, the file counter
 * its chunks share, and how many chunks are still open (the planner holds one until it is done).
 */
final class TableJob {
    private final TableSchema schema;
    private final List<Column> columns;
    private final String selectList;
    private final String insertPrefix;
    private final byte[] insertPrefixUtf8;
    private final long estimatedRows;
    private final AtomicLong nextFile = new AtomicLong(1);
    private final AtomicInteger open = new AtomicInteger(1);
    private final AtomicInteger chunks = new AtomicInteger();

    TableJob(TableSchema schema, long estimatedRows) {
        this.schema = schema;
        this.columns = schema.writableColumns();
        StringBuilder select = new StringBuilder(ResultSetValues.selectList(columns));
        for (Column c : columns) {
            if (c.dataType().equals("json")) { // MySQL's: which of its printed strings are strings
                select.append(", ").append(JsonTextTypes.stringsSql(Identifiers.quote(c.name())));
            }
        }
        this.selectList = select.toString();
        this.estimatedRows = estimatedRows;
        StringBuilder sb = new StringBuilder("INSERT INTO ");
        Identifiers.appendQuoted(sb, schema.name().table());
        sb.append(" (");
        for (int i = 0; i < columns.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            Identifiers.appendQuoted(sb, columns.get(i).name());
        }
        this.insertPrefix = sb.append(") VALUES\n").toString();
        this.insertPrefixUtf8 = insertPrefix.getBytes(StandardCharsets.UTF_8);
    }

    TableName name() {
        return schema.name();
    }

    TableSchema schema() {
        return schema;
    }

    List<Column> columns() {
        return columns;
    }

    /**
     * The columns' select list, then for each MySQL JSON column, in order, which of its document's
     * printed strings are strings ({@link JsonTextTypes#stringsSql}).
     */
    String selectList() {
        return selectList;
    }

    /** {@code INSERT INTO `tbl` (`a`,`b`) VALUES\n}: unqualified, as Dumpling writes it. */
    String insertPrefix() {
        return insertPrefix;
    }

    /** {@link #insertPrefix()} in UTF-8, as the data files hold it. */
    byte[] insertPrefixUtf8() {
        return insertPrefixUtf8;
    }

    long estimatedRows() {
        return estimatedRows;
    }

    long nextFileIndex() {
        return nextFile.getAndIncrement();
    }

    /** A resumed dump's chunks number their files after those its finished chunks kept. */
    void filesAfter(long index) {
        nextFile.accumulateAndGet(index + 1, Math::max);
    }

    /** Called by the planner for each chunk it hands out. */
    int chunkPlanned() {
        open.incrementAndGet();
        return chunks.incrementAndGet();
    }

    int chunkCount() {
        return chunks.get();
    }

    /** Called when a chunk finished, and once by the planner when it is done; true when the table is complete. */
    boolean release() {
        return open.decrementAndGet() == 0;
    }
}
