package io.jdm.cli.run;

import io.jdm.common.meta.MetaTable;

import io.jdm.common.config.MySqlInstance;
import io.jdm.common.config.TaskConfig;
import io.jdm.common.error.FatalException;
import io.jdm.common.sql.TableName;
import io.jdm.load.LoadFootprint;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Before a source is dumped again: whatever its load wrote from an earlier dump that never
 * completed comes from a snapshot that is gone, and must not stay beside the new snapshot's rows
 * and binlog position. Its target tables are emptied and its loader checkpoint cleared, in one log
 * line; where another source's load wrote into the same tables, nothing is touched and the task
 * stops saying what to do.
 */
final class AbandonedLoad {
    private static final Logger LOG = LoggerFactory.getLogger("jdm");

    private AbandonedLoad() {
    }

    static void undo(TaskConfig task, MySqlInstance i) {
        LoadFootprint mine = LoadFootprint.read(UnitConfigs.load(task, i));
        if (mine.isEmpty()) {
            return;
        }
        for (MySqlInstance other : task.mysqlInstances()) {
            if (other.sourceId().equals(i.sourceId())) {
                continue;
            }
            Set<TableName> shared = new TreeSet<>(mine.tables());
            shared.retainAll(LoadFootprint.read(UnitConfigs.load(task, other)).tables());
            if (!shared.isEmpty()) {
                throw new FatalException("source " + i.sourceId() + ": its last dump did not complete, so the rows"
                        + " its load wrote from it must go, but " + names(shared) + " also hold rows of source "
                        + other.sourceId() + "; empty those tables and delete both sources' rows from "
                        + MetaTable.LOADER_CHECKPOINT.of(task.metaSchema(), task.name()) + " by hand, then rerun");
            }
        }
        mine.erase();
        LOG.warn("source {}: its last dump did not complete and its snapshot is gone, so its load is undone: "
                        + "emptied {} target table(s) ({}) and cleared {} loader checkpoint row(s); dumping again",
                i.sourceId(), mine.tables().size(), names(mine.tables()), mine.checkpointRows());
    }

    private static String names(Set<TableName> tables) {
        return tables.isEmpty() ? "none" : tables.stream().map(TableName::quoted).collect(Collectors.joining(", "));
    }
}
