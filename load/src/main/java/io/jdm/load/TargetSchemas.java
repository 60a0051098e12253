package io.jdm.load;

import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.schema.SchemaReader;
import io.jdm.common.schema.TableReadCache;
import io.jdm.common.schema.TableSchema;
import io.jdm.common.sql.TableName;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;

/**
 * The columns of each target table, read once per load (with their schema's when many of its
 * tables load, {@link TableReadCache}): what a file's fields go into (their order when an INSERT
 * names none, which of them are JSON). The tables are created before their files load, and nothing
 * of the load changes their columns after.
 */
final class TargetSchemas {
    private final TableReadCache<TableSchema> known = new TableReadCache<>(new TableReadCache.Reader<>() {
        @Override
        public TableSchema one(Connection c, TableName table) throws SQLException {
            try {
                return SchemaReader.read(c, table);
            } catch (SQLException e) {
                if (!ErrorClassifier.isNoSuchTable(e)) {
                    throw e;
                }
                return null;
            }
        }

        @Override
        public Map<String, TableSchema> whole(Connection c, String schema) throws SQLException {
            return SchemaReader.readAll(c, schema);
        }
    });

    /**
     * The columns of {@code table}, read on {@code c} the first time; that read is committed, so
     * that the transaction the caller opens next starts after it, as {@code TableEngines} does.
     * Null when the table is not there (its statements then fail naming it, as they would have).
     */
    TableSchema of(Connection c, TableName table) throws SQLException {
        return known.get(c, table);
    }

    /** Reads the columns of {@code table} ahead, inside the caller's transaction ({@link TableReadCache#warm}). */
    void warm(Connection c, TableName table) throws SQLException {
        known.warm(c, table);
    }
}
