package io.jdm.sync.shard;

import io.jdm.common.error.FatalException;
import io.jdm.common.schema.Column;
import io.jdm.common.schema.SchemaReader;
import io.jdm.common.schema.TableSchema;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.filter.ExtraColumns;
import io.jdm.common.sql.TableName;
import io.jdm.common.util.Hashes;
import io.jdm.sync.writer.DdlApplier;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pessimistic mode's spools: one table per shard and group DDL in the meta schema, like the shard
 * after the DDL plus {@link ShardCoordinator#DELETED}, each row holding its key's last image; drained
 * into the merged table (deletes, then upserts) in the transaction that moves the checkpoint.
 */
final class Spools {
    private static final Logger LOG = LoggerFactory.getLogger(Spools.class);
    static final String DELETED = ShardCoordinator.DELETED;

    private final ShardStore store;
    private final String sourceId;

    Spools(ShardStore store, String sourceId) {
        this.store = store;
        this.sourceId = sourceId;
    }

    /**
     * Writes the spool's rows into the merged table {@code to}; {@code extra} are the columns the
     * shard's route adds there (its extract-table, extract-schema, extract-source values), which the
     * spool, made like the shard, lacks: they are written with each row and tell the shard's rows apart.
     */
    void drain(Connection c, TableName spool, TableName to, TableName shard, int seq, ExtraColumns extra)
            throws SQLException {
        TableSchema sp = SchemaReader.read(c, spool);
        if (sp == null) {
            throw new FatalException("sync: the spool " + spool + " of shard " + shard + " is gone from the target; "
                    + "its rows since group DDL " + seq + " of " + to + " cannot be written: restore it or start the "
                    + "task over");
        }
        List<String> cols = new ArrayList<>();
        for (Column col : sp.columns()) {
            if (!col.generated() && !col.name().equalsIgnoreCase(DELETED)) {
                cols.add(Identifiers.quote(col.name()));
            }
        }
        List<String> key = sp.primaryKey().isEmpty() ? sp.uniqueKeys().get(0) : sp.primaryKey();
        StringBuilder on = new StringBuilder();
        for (String k : key) {
            on.append(on.length() == 0 ? "" : " AND ").append("t.").append(Identifiers.quote(k)).append(" = s.")
                    .append(Identifiers.quote(k));
        }
        for (int i = 0; i < extra.size(); i++) {
            on.append(" AND t.").append(Identifiers.quote(extra.names().get(i))).append(" = ").append(extra.literal(i));
        }
        String list = String.join(", ", cols);
        StringBuilder update = new StringBuilder();
        for (String col : cols) {
            update.append(update.length() == 0 ? "" : ", ").append(col).append(" = VALUES(").append(col).append(')');
        }
        StringBuilder into = new StringBuilder(list);
        StringBuilder select = new StringBuilder(list);
        for (int i = 0; i < extra.size(); i++) {
            into.append(", ").append(Identifiers.quote(extra.names().get(i)));
            select.append(", ").append(extra.literal(i));
        }
        try (Statement st = c.createStatement()) {
            st.execute("USE " + Identifiers.quote(to.schema())); // MariaDB resolves a multi-table DELETE's list there
            int deleted = st.executeUpdate("DELETE t FROM " + to.quoted() + " t JOIN " + spool.quoted() + " s ON " + on
                    + " WHERE s." + Identifiers.quote(DELETED) + " = 1");
            int written = st.executeUpdate("INSERT INTO " + to.quoted() + " (" + into + ") SELECT " + select + " FROM "
                    + spool.quoted() + " WHERE " + Identifiers.quote(DELETED) + " = 0 ON DUPLICATE KEY UPDATE "
                    + update);
            LOG.debug("sync: spool {} drained into {}: {} deleted, {} written", spool, to, deleted, written);
        }
        store.applied(c, to, sourceId, shard, seq);
    }

    void create(Connection c, TableName spool, TableName copy, TableName shard) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS " + spool.quoted() + " LIKE " + copy.quoted());
            try {
                st.execute("ALTER TABLE " + spool.quoted() + " ADD COLUMN " + Identifiers.quote(DELETED)
                        + " TINYINT(1) NOT NULL DEFAULT 0");
            } catch (SQLException e) {
                if (!DdlApplier.alreadyDone(e)) {
                    throw e;
                }
            }
        }
        TableSchema s = SchemaReader.read(c, spool);
        if (s == null || (s.primaryKey().isEmpty() && s.uniqueKeys().isEmpty())) {
            throw new FatalException("sync: shard " + shard + " has no primary or not-null unique key: its rows "
                    + "cannot wait for a group DDL in shard-mode pessimistic; add a key to the shards, or leave "
                    + "shard-mode out and apply shard DDL on the target yourself");
        }
    }

    /** Spools of this source's shards that no undrained arrival needs (a stop between steps left them). */
    void dropLeftSpools(Connection c, Collection<ShardCoordinator.Shard> shards) throws SQLException {
        Map<String, ShardCoordinator.Shard> byPrefix = new HashMap<>();
        for (ShardCoordinator.Shard s : shards) {
            byPrefix.put(spoolPrefix(s.source), s);
        }
        List<String> drop = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT TABLE_NAME FROM "
                + "information_schema.TABLES WHERE TABLE_SCHEMA = " + Identifiers.literal(store.metaSchema())
                + " AND TABLE_NAME LIKE 'jdm\\_spool\\_%'")) {
            while (rs.next()) {
                String name = rs.getString(1);
                int cut = name.lastIndexOf('_');
                ShardCoordinator.Shard s = byPrefix.get(name.substring(0, cut + 1));
                if (s != null && !s.spooling.contains(Integer.parseInt(name.substring(cut + 1)))) {
                    drop.add(name);
                }
            }
        }
        try (Statement st = c.createStatement()) {
            for (String name : drop) {
                st.execute("DROP TABLE IF EXISTS " + new TableName(store.metaSchema(), name).quoted());
            }
        }
    }

    /** A shard's spool for group DDL {@code seq}: short, stable, in the meta schema. */
    TableName name(TableName shard, int seq) {
        return new TableName(store.metaSchema(), spoolPrefix(shard) + seq);
    }

    private String spoolPrefix(TableName shard) {
        return "jdm_spool_" + Hashes.sha256Hex(store.task() + "\0" + sourceId + "\0" + shard.schema() + "\0"
                + shard.table(), 16) + "_";
    }
}
