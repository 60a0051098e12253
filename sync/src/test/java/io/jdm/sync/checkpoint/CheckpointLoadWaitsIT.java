package io.jdm.sync.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.jdm.common.jdbc.DataSources;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import io.jdm.sync.ring.ChangePos;
import java.sql.Connection;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A start reads the checkpoint rows after any COMMIT still running on them: a writer of a process
 * killed during its COMMIT leaves that commit to finish on the target, and the next process must
 * not read the row from before it (the batch would be applied twice).
 */
class CheckpointLoadWaitsIT {
    private final SqlServer target = TestServers.shared().target();

    @Test
    void loadWaitsForACommitInFlightOnTheRowsAndReadsWhatItLeft() throws Exception {
        target.execute("DROP DATABASE IF EXISTS jdm_meta_ckwait", "CREATE DATABASE jdm_meta_ckwait");
        ConnectionSpec spec = ConnectionSpec.of(target.host(), target.port(), target.user(), target.password());
        CheckpointStore store = new CheckpointStore(new TableName("jdm_meta_ckwait", "t_syncer_checkpoint"), "s1");
        ChangePos start = new ChangePos("mysql-bin.000001", 4, 0, 0, "");
        ChangePos later = new ChangePos("mysql-bin.000001", 9000, 0, 0, "");
        try (Connection writer = DataSources.connect(spec); Connection successor = DataSources.connect(spec)) {
            store.ensureTable(writer);
            store.startGeneration(writer, 1, 1, start);
            writer.setAutoCommit(false);
            StringBuilder sb = new StringBuilder();
            store.appendUpsert(sb, 1, 0, 1, later);
            try (Statement st = writer.createStatement()) {
                st.execute(sb.toString()); // the batch's row, not yet committed: its lock is held
            }
            CompletableFuture<CheckpointStore.Saved> read = CompletableFuture.supplyAsync(() -> {
                try {
                    return store.load(successor);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Thread.sleep(1500);
            assertFalse(read.isDone(), "the start waits while the commit runs");
            writer.commit();
            CheckpointStore.Saved saved = read.get(30, TimeUnit.SECONDS);
            assertEquals(later.txnPos(), saved.latest().positions()[0].txnPos(), "the start reads what it left");
        }
    }
}
