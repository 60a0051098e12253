package io.jdm.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.dumpdir.DumpFileNames;
import io.jdm.common.sql.TableName;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class LoaderCheckpointTest {
    @Test
    void aPausedTablesRowNamesItsTableBackWhateverItsName() {
        for (TableName t : new TableName[] {new TableName("db", "t"), new TableName("we`ird.db", "t `1`"),
                new TableName("d", "stats:x")}) {
            assertEquals(t, LoaderCheckpoint.pausedTable(LoaderCheckpoint.statsKey(t)));
        }
        assertNull(LoaderCheckpoint.pausedTable(LoaderCheckpoint.indexKey(new TableName("db", "t"))));
        assertNull(LoaderCheckpoint.pausedTable("db.t.000000001.sql"));
    }

    /** The row of a table created without its secondary indexes names it, and is pending till they are added. */
    @Test
    void aDeferredTablesRowNamesItsTableAndIsPendingTillItsIndexesAreIn() {
        for (TableName t : new TableName[] {new TableName("db", "t"), new TableName("we`ird.db", "t `1`"),
                new TableName("d", "indexes:x")}) {
            String key = LoaderCheckpoint.indexKey(t);
            assertEquals(t, LoaderCheckpoint.deferredTable(key));
            assertTrue(LoaderCheckpoint.indexesPending(new LoaderCheckpoint.Row(key, 0, 0, LoaderCheckpoint.PENDING)));
            assertFalse(LoaderCheckpoint.indexesPending(new LoaderCheckpoint.Row(key, 0, 0,
                    LoaderCheckpoint.FINISHED)));
        }
        for (String other : new String[] {LoaderCheckpoint.statsKey(new TableName("db", "t")), "db.t.000000001.sql"}) {
            assertNull(LoaderCheckpoint.deferredTable(other));
            assertFalse(LoaderCheckpoint.indexesPending(new LoaderCheckpoint.Row(other, 0, 0,
                    LoaderCheckpoint.PENDING)));
        }
    }

    @Test
    void aFileIsBegunOnceARowOfItMayBeInTheTarget() {
        assertFalse(new LoaderCheckpoint.Row("f", 0, 10, LoaderCheckpoint.PENDING).begun());
        assertTrue(new LoaderCheckpoint.Row("f", 0, 10, LoaderCheckpoint.APPLYING).begun(), "announced at offset 0");
        assertTrue(new LoaderCheckpoint.Row("f", 4, 10, LoaderCheckpoint.LOADING).begun());
        assertTrue(new LoaderCheckpoint.Row("f", 10, 10, LoaderCheckpoint.FINISHED).begun());
    }

    @Test
    void aDataFilesRowNamesItsRoutedTargetTable() {
        UnaryOperator<TableName> route = t -> new TableName("merged", t.table());
        assertEquals(new TableName("merged", "t.1"), LoaderCheckpoint.targetOf(
                DumpFileNames.dataFile("shard_1", "t.1", 3, ".zst"), route));
        assertNull(LoaderCheckpoint.targetOf(LoaderCheckpoint.indexKey(new TableName("db", "t")), route));
        assertNull(LoaderCheckpoint.targetOf(LoaderCheckpoint.statsKey(new TableName("db", "t")), route));
        assertNull(LoaderCheckpoint.targetOf(DumpFileNames.tableSchema("db", "t"), route));
    }
}
