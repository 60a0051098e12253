package io.jdm.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.jdm.common.sql.TableName;
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
}
