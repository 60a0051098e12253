package io.jdm.cli.check;

import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.sql.TableName;
import io.jdm.load.PriorRows;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Checks on the target tables a task's load writes into that are there before it runs. The load
 * goes by what it finds on the target, not by the source: a table there without a key that holds
 * rows no load of the task wrote stops it ({@link PriorRows}; DM's {@code downstream_table_empty},
 * Lightning's "target table is not empty"), and a table whose engine keeps rows outside
 * transactions is written statement by statement however the source keeps it.
 */
final class TargetTableChecks {
    static final String EMPTY_ITEM = "downstream_table_empty";

    private TargetTableChecks() {
    }

    /**
     * The selected tables of one source whose task loads, and which of them keep their rows outside
     * transactions there.
     */
    record LoadedSource(String id, UnaryOperator<TableName> router, List<TableName> tables, Set<TableName> outside) {
    }

    static LoadedSource collect(ServerFacts f, PrecheckInput.Source s) throws SQLException {
        List<TableName> tables = SourceChecks.tables(f, s);
        return new LoadedSource(s.id(), s.router(), tables,
                TableChecks.outsideTransactions(f.connection, tables).keySet());
    }

    /**
     * The two checks over the target tables of {@code sources}.
     *
     * @param complete whether every source that loads is in {@code sources}: a pass on part of them
     *                 would say more than was checked
     */
    static List<CheckResult> run(Connection target, String inst, PrecheckInput in, List<LoadedSource> sources,
                                 boolean complete) {
        Map<TableName, List<String>> fromSources = new LinkedHashMap<>();
        Map<TableName, Boolean> transactionalSomewhere = new HashMap<>();
        Map<String, UnaryOperator<TableName>> routers = new HashMap<>();
        for (LoadedSource s : sources) {
            routers.put(s.id(), s.router());
            for (TableName t : s.tables()) {
                TableName to = s.router().apply(t);
                fromSources.computeIfAbsent(to, k -> new ArrayList<>()).add(s.id() + " " + t);
                transactionalSomewhere.merge(to, !s.outside().contains(t), Boolean::logicalOr);
            }
        }
        List<CheckResult> out = new ArrayList<>();
        try {
            List<TableName> held = PriorRows.keylessHeld(target, in.metaSchema(), in.task(),
                    id -> routers.getOrDefault(id, UnaryOperator.identity()), fromSources.keySet());
            if (!held.isEmpty()) {
                out.add(CheckResult.fail(EMPTY_ITEM, inst, PriorRows.problem(held, in.metaSchema(), in.task())
                        + " (the load stops before writing into " + (held.size() == 1 ? "it" : "them") + ")"));
            } else if (complete) {
                out.add(CheckResult.pass(EMPTY_ITEM, inst, "no target table without a primary or NOT NULL unique key"
                        + " holds rows that a load of this task did not write"));
            }
        } catch (SQLException e) {
            out.add(CheckResult.warn(EMPTY_ITEM, inst, "cannot read the target tables or the task's loader"
                    + " checkpoint: " + ErrorClassifier.oneLine(e)));
        }
        try {
            List<String> changed = new ArrayList<>();
            TableChecks.outsideTransactions(target, fromSources.keySet()).forEach((t, engine) -> {
                if (transactionalSomewhere.getOrDefault(t, false)) {
                    changed.add(t + " (" + engine + ", from " + String.join(", ", fromSources.get(t)) + ")");
                }
            });
            if (!changed.isEmpty()) {
                out.add(CheckResult.warn("table_schema", inst, changed.size() + " target table"
                        + (changed.size() == 1 ? " keeps its" : "s keep their") + " rows outside transactions while"
                        + " the source keeps them in transactions (" + TableChecks.shown(changed) + "): going by the"
                        + " target's engine, " + TableChecks.LOAD_OUTSIDE_TRANSACTIONS + "; ALTER TABLE"
                        + " ... ENGINE=InnoDB on the target, or drop the table for the load to create as the source"
                        + " has it, keeps its rows in transactions"));
            }
        } catch (SQLException e) {
            out.add(CheckResult.warn("table_schema", inst, "cannot read the engines of the target tables: "
                    + ErrorClassifier.oneLine(e)));
        }
        return out;
    }
}
