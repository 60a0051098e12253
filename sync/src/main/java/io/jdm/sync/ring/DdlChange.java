package io.jdm.sync.ring;

import io.jdm.common.sql.TableName;
import java.util.List;

/**
 * One table's DDL statement, ready for the target: applied behind a barrier (every writer drained).
 *
 * @param schema the default database the statement ran in on the source (may be empty)
 * @param sql the statement for the target: names rewritten through the routes
 * @param sourceSql the statement as the source ran it (one table's part of it), for messages
 * @param tables the source tables it touches
 * @param targetTables the target tables it touches (its tables through the routes), whose state
 *        before it tells a restart whether it ran; empty for CREATE/DROP DATABASE
 * @param targetSchema the database it runs in on the target (the route of its table); null for
 *        CREATE/DROP DATABASE
 * @param targetSchemaOptions the charset and collation of the source database the statement ran
 *        against ({@code CHARACTER SET x COLLATE y}), for a target database that does not exist yet;
 *        empty for CREATE/DROP DATABASE
 * @param session the session the statement ran in on the source, set on the target around it
 * @param createsTable a CREATE TABLE: it runs while the target database has the source database's
 *        defaults ({@code targetSchemaOptions}), which columns declared without a charset take
 * @param step what the barrier does besides or instead of the statement; null for none
 */
public record DdlChange(String schema, String sql, String sourceSql, List<TableName> tables,
                        List<TableName> targetTables, String targetSchema,
                        String targetSchemaOptions, ChangePos pos, long eventMillis, SourceSession session,
                        boolean createsTable, BarrierStep step) {

    public DdlChange(String schema, String sql, String sourceSql, List<TableName> tables,
                     List<TableName> targetTables, String targetSchema, String targetSchemaOptions, ChangePos pos,
                     long eventMillis, SourceSession session, boolean createsTable) {
        this(schema, sql, sourceSql, tables, targetTables, targetSchema, targetSchemaOptions, pos, eventMillis,
                session, createsTable, null);
    }

    /** The same change with {@code s} as its barrier step. */
    public DdlChange withStep(BarrierStep s) {
        return new DdlChange(schema, sql, sourceSql, tables, targetTables, targetSchema, targetSchemaOptions, pos,
                eventMillis, session, createsTable, s);
    }
}
