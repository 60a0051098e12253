package io.jdm.common.meta;

import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.TableName;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Every table jdm keeps for a task in the target's meta schema ({@code meta-schema}, DM's
 * {@code dm_meta} by default), named {@code {task}_{suffix}}: the one list of them. The units
 * keep their own queries; what concerns the set (its names, {@code --remove-meta}, the documented
 * list) comes from here.
 */
public enum MetaTable {
    /** One lease per source: which process runs it (see io.jdm.common.lease). */
    OWNER("owner", "the lease of each source: which process runs it"),
    VERSION_TABLE("meta_version", "the newest form of these tables a jdm that ran the task wrote; an older jdm refuses"
            + " the task"),
    STAGE("stage", "each source's stage (dump, load, sync) and whether pause-task paused it"),
    LOADER_CHECKPOINT("loader_checkpoint", "the load's offset in each data file"),
    SYNCER_CHECKPOINT("syncer_checkpoint", "each sync writer's position, and the global checkpoint"),
    SYNCER_DDL("syncer_ddl", "the DDL being applied (its marker), until the checkpoint passes it"),
    SYNCER_OPERATOR("syncer_operator", "binlog skip, replace and inject operators"),
    SYNCER_HOLD("syncer_hold", "where verify --snapshot asks the running sync to pause"),
    ONLINE_DDL("onlineddl", "the ghost-table ALTERs of a gh-ost or pt-osc migration waiting for its cut-over"),
    SHARD_SOURCE("shard_source", "shard mode: the sources that listed their shards"),
    SHARD_MEMBER("shard_member", "shard mode: the shards of each merged table"),
    SHARD_LOCK("shard_lock", "shard mode: the group DDL locks"),
    SHARD_ARRIVAL("shard_arrival", "shard mode: which shard reached which group DDL"),
    VALIDATOR_STATE("validator_state", "continuous validation of each source: mode, stage, counters, the cutover "
            + "of `jdm validation update` (DM's _validator_checkpoint)"),
    VALIDATOR_PENDING("validator_pending", "continuous validation: the rows not yet compared or still differing, as "
            + "at the last meta flush (DM's _validator_pending_change)"),
    VALIDATOR_ERROR("validator_error", "continuous validation: the rows that kept differing, and what an operator "
            + "made of them (DM's _validator_error_change)"),
    VALIDATOR_TABLE("validator_table", "continuous validation: each table's stage, and why one is not validated "
            + "(DM's _validator_table_status)");

    /**
     * The form of the meta tables this jdm writes and reads, kept in {@link #VERSION_TABLE} as a process
     * takes its lease: a jdm whose form is older than the one kept refuses the task, so that it never
     * misreads what a newer one wrote. Raise it with a change to a meta table that an older jdm would
     * misread, not for a column it ignores.
     */
    public static final int VERSION = 1;

    private final String suffix;
    private final String holds;

    MetaTable(String suffix, String holds) {
        this.suffix = suffix;
        this.holds = holds;
    }

    /** {@code {metaSchema}.{task}_{suffix}}. */
    public TableName of(String metaSchema, String task) {
        return new TableName(metaSchema, task + "_" + suffix);
    }

    /** The part after {@code {task}_}. */
    public String suffix() {
        return suffix;
    }

    /** What the table holds, for docs and messages. */
    public String holds() {
        return holds;
    }

    /** The tables that say where a task is: all but the leases, which say who runs it, and the form kept. */
    public static List<MetaTable> progress() {
        return java.util.Arrays.stream(values()).filter(t -> t != OWNER && t != VERSION_TABLE).toList();
    }

    /**
     * Creates a meta table, and the meta schema, unless they exist: the one way the units make
     * them. {@code columns} is what goes between the parentheses; InnoDB, utf8mb4.
     */
    public static void create(Connection c, TableName table, String columns) throws SQLException {
        create(c, table, columns, "ENGINE=InnoDB DEFAULT CHARSET=utf8mb4");
    }

    /** As {@link #create(Connection, TableName, String)}, with the table's own options. */
    public static void create(Connection c, TableName table, String columns, String options) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE IF NOT EXISTS " + Identifiers.quote(table.schema()));
            st.execute("CREATE TABLE IF NOT EXISTS " + table.quoted() + " (" + columns + ") " + options);
        }
    }
}
