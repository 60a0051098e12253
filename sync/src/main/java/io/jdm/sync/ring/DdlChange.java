package io.jdm.sync.ring;

import io.jdm.common.sql.TableName;
import java.util.List;

/**
 * A DDL statement on selected tables: applied behind a barrier (every writer drained).
 *
 * @param schema the default database the statement ran in on the source (may be empty)
 * @param tables the selected tables it touches
 * @param targetSchema the database it runs in on the target (the route of its first table)
 */
public record DdlChange(String schema, String sql, List<TableName> tables, String targetSchema, ChangePos pos,
                        long eventMillis) {
}
