package io.jdm.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** {@link SyncerConfig#with}: one way to change any syncer setting, by its key. */
class KeyedRecordsTest {
    @Test
    void everySyncerKeyNamesAComponentOfItsType() {
        SyncerConfig d = SyncerConfig.defaults();
        for (TaskKey<?> k : SyncerKeys.ALL) {
            if (!k.ignored()) {
                assertEquals(d, withDefault(d, k), k.toString());
            }
        }
    }

    private static <T> SyncerConfig withDefault(SyncerConfig c, TaskKey<T> k) {
        return c.with(k, k.def());
    }

    @Test
    void changesOnlyTheKeysComponent() {
        SyncerConfig d = SyncerConfig.defaults();
        SyncerConfig c = d.with(SyncerKeys.BATCH, 7).with(SyncerKeys.ENABLE_GTID, false);
        assertEquals(new SyncerConfig(d.workerCount(), 7, d.queueSize(), d.safeMode(), d.safeModeDuration(),
                d.checkpointFlushInterval(), d.compact(), d.multipleRows(), false, d.heartbeatInterval()), c);
    }

    @Test
    void aKeyOfAnotherSectionIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SyncerConfig.defaults().with(MydumperKeys.ROWS, 5L));
        assertEquals("SyncerConfig has no component rows for mydumpers.*.rows", e.getMessage());
    }

    @Test
    void theRecordsOwnChecksApply() {
        assertThrows(NullPointerException.class,
                () -> SyncerConfig.defaults().with(SyncerKeys.HEARTBEAT_INTERVAL, null));
    }
}
