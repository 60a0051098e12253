package io.jdm.sync.reader;

import io.jdm.common.config.EventType;
import io.jdm.common.sql.TableName;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rewrites one table's DDL for the target through the routes. Where several source tables are
 * merged into one target table (shards), a shard's DDL must not destroy the merged table: CREATE
 * becomes CREATE … IF NOT EXISTS, ALTER runs once per shard and a repeat's "duplicate column/key"
 * or "cannot drop" is taken as done (see the DDL applier), and DROP, TRUNCATE and RENAME of a
 * shard are not applied (logged as a warning). DM's pessimistic shard mode would instead block
 * until every shard had run the statement; jdm has no cross-shard barrier, so it keeps the merged
 * table and its rows, and the DBA drops or truncates it by hand when every shard is gone. DROP
 * DATABASE of a schema routed elsewhere is likewise not applied: the target schema may hold
 * other sources' tables.
 */
final class DdlRoutes {
    private static final Logger LOG = LoggerFactory.getLogger(DdlRoutes.class);

    private final UnaryOperator<TableName> router;
    /** True for a target table that more than one source table is routed to. */
    private final Predicate<TableName> merged;

    DdlRoutes(UnaryOperator<TableName> router, Predicate<TableName> merged) {
        this.router = router;
        this.merged = merged;
    }

    /** The statement for the target, or null (with the reason logged) when it must not run there. */
    String targetSql(ParsedDdl d, Object where) {
        TableName src = d.primary();
        TableName to = router.apply(src);
        if (d.isDatabase()) {
            boolean renamed = !to.schema().equals(src.schema());
            if (renamed && d.kind() == EventType.DROP_DATABASE) {
                return skip(d, where, "database " + src.schema() + " is routed to " + to.schema()
                        + ", which may hold other tables");
            }
            return (renamed ? d.withIfNotExists() : d).rewrite(router);
        }
        boolean shard = merged.test(to);
        switch (d.kind()) {
            case CREATE_TABLE -> {
                return (to.equals(src) ? d : d.withIfNotExists()).rewrite(router);
            }
            case DROP_TABLE, TRUNCATE_TABLE -> {
                if (shard) {
                    return skip(d, where, src + " is one of the shards merged into " + to);
                }
            }
            case RENAME_TABLE, ALTER_TABLE -> {
                TableName dest = d.renamedTo() == null ? null : router.apply(d.renamedTo());
                if (dest != null && (shard || merged.test(dest))) {
                    return skip(d, where, "renaming a shard would rename the merged table " + to);
                }
                if (dest != null && dest.equals(to) && d.kind() == EventType.RENAME_TABLE) {
                    return skip(d, where, "both names route to " + to);
                }
            }
            default -> {
            }
        }
        return d.rewrite(router);
    }

    private static String skip(ParsedDdl d, Object where, String why) {
        LOG.warn("sync: DDL at {} not applied to the target ({}): {}", where, why, d.sql().replaceAll("\\s+", " "));
        return null;
    }
}
