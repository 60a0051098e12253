package io.jdm.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@link SyncerConfig#with}, {@link LoaderConfig#with}, {@link MydumperConfig#with}: one way to change any
 * setting of a unit section, by its key.
 */
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

    @Test
    void everyLoaderKeyWithAValueNamesAComponentOfItsType() {
        LoaderConfig d = LoaderConfig.defaults();
        for (TaskKey<?> k : LoaderKeys.ALL) {
            if (!k.ignored() && k != LoaderKeys.IMPORT_MODE) {
                assertEquals(d, withDefault(d, k), k.toString());
            }
        }
    }

    private static <T> LoaderConfig withDefault(LoaderConfig c, TaskKey<T> k) {
        return c.with(k, k.def());
    }

    @Test
    void loaderKeysChangeTheirComponent() {
        LoaderConfig d = LoaderConfig.defaults();
        assertEquals(new LoaderConfig(3, Optional.of(Path.of("x")), OnDuplicate.REPLACE, DeferIndexes.ALWAYS, false,
                        false, true),
                d.with(LoaderKeys.POOL_SIZE, 3).with(LoaderKeys.DIR, Optional.of(Path.of("x")))
                        .with(LoaderKeys.ON_DUPLICATE_LOGICAL, OnDuplicate.REPLACE)
                        .with(LoaderKeys.DEFER_INDEXES, DeferIndexes.ALWAYS)
                        .with(LoaderKeys.DISABLE_FOREIGN_KEY_CHECKS, false)
                        .with(LoaderKeys.DISABLE_UNIQUE_CHECKS, false).with(LoaderKeys.DISABLE_BINLOG, true));
        assertEquals(OnDuplicate.IGNORE, d.with(LoaderKeys.ON_DUPLICATE, OnDuplicate.IGNORE).onDuplicate());
    }

    @Test
    void aLoaderKeyWithoutAComponentIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LoaderConfig.defaults().with(LoaderKeys.IMPORT_MODE, "logical"));
        assertEquals("LoaderConfig has no component importMode for loaders.*.import-mode", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> LoaderConfig.defaults().with(MydumperKeys.DIR, Optional.of(Path.of("x"))));
        assertEquals("LoaderConfig has no component dir for mydumpers.*.dir", e.getMessage());
    }

    @Test
    void everyMydumperKeyWithAValueNamesAComponentOfItsType() {
        MydumperConfig d = MydumperConfig.defaults("t");
        for (TaskKey<?> k : MydumperKeys.ALL) {
            if (!k.ignored() && k != MydumperKeys.EXTRA_ARGS && k != MydumperKeys.DIR) {
                assertEquals(d, withDefault(d, k), k.toString());
            }
        }
    }

    private static <T> MydumperConfig withDefault(MydumperConfig c, TaskKey<T> k) {
        return c.with(k, k.def());
    }

    @Test
    void mydumperKeysChangeTheirComponent() {
        MydumperConfig d = MydumperConfig.defaults("t");
        assertEquals(new MydumperConfig(2, 10, 300, 5, Consistency.FLUSH, Optional.of("id > 1"), Compression.GZIP,
                        Path.of("out")),
                d.with(MydumperKeys.THREADS, 2).with(MydumperKeys.ROWS, 10L).with(MydumperKeys.STATEMENT_SIZE, 300L)
                        .with(MydumperKeys.CHUNK_FILESIZE, 5).with(MydumperKeys.CONSISTENCY, Consistency.FLUSH)
                        .with(MydumperKeys.WHERE, Optional.of("id > 1")).with(MydumperKeys.COMPRESS, Compression.GZIP)
                        .with(MydumperKeys.DIR, Optional.of(Path.of("out"))));
        assertThrows(IllegalArgumentException.class, () -> d.with(MydumperKeys.DIR, Optional.empty()));
        assertThrows(IllegalArgumentException.class, () -> d.with(MydumperKeys.EXTRA_ARGS, Optional.of("--rows 1")));
    }
}
