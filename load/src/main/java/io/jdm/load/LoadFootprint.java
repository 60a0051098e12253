package io.jdm.load;

import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.JdmException;
import io.jdm.common.sql.TableName;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the load of one source has committed to the target, as its checkpoint tells: the target
 * tables holding rows of its files. When the dump those rows came from never completed, its snapshot
 * is gone and a new dump takes another one; {@link #erase()} then empties those tables and clears
 * the checkpoint, so that no row of the old snapshot meets the new snapshot's rows and position.
 * Tables whose automatic statistics that load paused get them back first: the checkpoint rows
 * that say so are cleared with the rest, and the next load finds the tables already there.
 */
public final class LoadFootprint {
    private final LoadJob job;
    private final int rows;
    private final Set<TableName> tables;
    private final Set<TableName> paused;

    private LoadFootprint(LoadJob job, int rows, Set<TableName> tables, Set<TableName> paused) {
        this.job = job;
        this.rows = rows;
        this.tables = tables;
        this.paused = paused;
    }

    /**
     * Reads the checkpoint of {@code config}'s task and source; empty when it has none.
     *
     * @throws JdmException with one line when the target cannot be read
     */
    public static LoadFootprint read(LoadConfig config) {
        LoadJob job = new LoadJob(config, new LoadMetrics(config.task(), config.sourceId()));
        try {
            return job.withRetry("reading the checkpoint", c -> {
                Map<String, LoaderCheckpoint.Row> all;
                try {
                    all = job.checkpoint.readAll(c);
                } catch (SQLException e) {
                    if (ErrorClassifier.isNoSuchTableOrDatabase(e)) {
                        return new LoadFootprint(job, 0, Set.of(), Set.of()); // no checkpoint table: nothing loaded
                    }
                    throw e;
                }
                Set<TableName> written = new TreeSet<>();
                Set<TableName> paused = new TreeSet<>();
                int rows = 0;
                for (LoaderCheckpoint.Row r : all.values()) {
                    if (LoaderCheckpoint.indexesPending(r)) {
                        continue; // kept by erase(): they name tables the next load gives their indexes
                    }
                    rows++;
                    TableName pausedTable = LoaderCheckpoint.pausedTable(r.file());
                    if (pausedTable != null && !r.finished()) {
                        paused.add(pausedTable);
                    }
                    TableName target = LoaderCheckpoint.targetOf(r.file(), config.router());
                    if (target != null && r.begun()) {
                        written.add(target);
                    }
                }
                return new LoadFootprint(job, rows, written, paused);
            });
        } finally {
            job.closeAdmin();
        }
    }

    /** True when the checkpoint has no row of this source. */
    public boolean isEmpty() {
        return rows == 0;
    }

    /**
     * The checkpoint's rows of this source that {@link #erase} deletes: one per data file, one per
     * table's deferred indexes once added, one per table whose statistics were paused.
     */
    public int checkpointRows() {
        return rows;
    }

    /** The target tables some of whose rows this source's load committed. */
    public Set<TableName> tables() {
        return tables;
    }

    /**
     * Empties {@link #tables()} and then deletes this source's checkpoint rows. In that order, a
     * crash between the two leaves the checkpoint to say again what to empty.
     *
     * @throws JdmException with one line when the target refuses
     */
    public void erase() {
        try {
            job.withRetry("emptying the tables of an abandoned load", c -> {
                SchemaLoader schema = new SchemaLoader(job);
                for (TableName t : paused) {
                    try {
                        schema.resumeStatistics(c, t);
                    } catch (SQLException e) {
                        if (!ErrorClassifier.isNoSuchTable(e) || ErrorClassifier.isRetriable(e)) {
                            throw e;
                        } // dropped since: nothing of it is left
                    }
                }
                try (Statement st = c.createStatement()) {
                    for (TableName t : tables) {
                        try {
                            st.execute("TRUNCATE TABLE " + t.quoted());
                        } catch (SQLException e) {
                            if (!ErrorClassifier.isNoSuchTable(e) || ErrorClassifier.isRetriable(e)) {
                                throw e;
                            } // dropped since: nothing of it is left
                        }
                    }
                }
                job.checkpoint.clear(c);
                return null;
            });
        } finally {
            job.closeAdmin();
        }
    }
}
