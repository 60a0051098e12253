package io.jdm.cli.run;

import io.jdm.common.config.MySqlInstance;
import io.jdm.common.config.TaskConfig;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.meta.MetaTable;
import io.jdm.common.sql.TableName;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DM's {@code start-task --remove-meta}: the task's tables in the meta schema are dropped before it
 * starts, so its sync starts from the task file's {@code meta} again, as a new task's does (in safe
 * mode for {@code safe-mode-duration}). The leases stay: this process holds them. The tables hold
 * every source's progress, so the process must run every source of the task. A task that loads is
 * refused: it would load its dump again into tables that hold the rows, and a table without a key
 * would hold them twice.
 */
final class MetaRemover {
    private static final Logger LOG = LoggerFactory.getLogger(MetaRemover.class);

    private MetaRemover() {
    }

    static void remove(TaskConfig task, boolean loads) {
        if (loads) {
            throw new FatalException("--remove-meta: task " + task.name() + " has task-mode "
                    + task.taskMode().yamlName() + ", and a new start would load its dump again into tables that "
                    + "hold the rows; empty the target's tables and drop the task's tables in " + task.metaSchema()
                    + " by hand to migrate again, or use it with task-mode incremental (or jdm sync) to sync from meta");
        }
        List<String> all = task.mysqlInstances().stream().map(MySqlInstance::sourceId).toList();
        List<String> here = task.runInstances().stream().map(MySqlInstance::sourceId).toList();
        if (!here.containsAll(all)) {
            throw new FatalException("--remove-meta removes the progress of every source of task " + task.name()
                    + " (" + String.join(", ", all) + "); run it once with all of them, without --source-id");
        }
        List<String> dropped = new ArrayList<>();
        try (Connection c = DataSources.connect(task.targetDatabase().toConnectionSpec());
             Statement st = c.createStatement()) {
            for (MetaTable t : MetaTable.progress()) {
                TableName name = t.of(task.metaSchema(), task.name());
                st.execute("DROP TABLE IF EXISTS " + name.quoted());
                if (st.getWarnings() == null) {
                    dropped.add(name.table());
                }
                st.clearWarnings();
            }
        } catch (SQLException e) {
            throw ErrorClassifier.wrap("--remove-meta: cannot drop the tables of task " + task.name() + " in "
                    + task.metaSchema() + " on the target", e);
        }
        LOG.info("task {}: --remove-meta: dropped {} in {}; the task starts as a new one", task.name(),
                dropped.isEmpty() ? "nothing (no table of the task was there)" : String.join(", ", dropped),
                task.metaSchema());
    }
}
