package io.jdm.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.jdm.common.config.DeferIndexes;
import io.jdm.common.config.LoaderConfig;
import io.jdm.common.config.LoaderKeys;
import io.jdm.common.config.OnDuplicate;
import io.jdm.common.jdbc.ConnectionSpec;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@link LoadConfig} holds the task file's {@code loaders:} entry and changes its settings by key. */
class LoadConfigTest {
    private static final Path DIR = Path.of("dumped_data.t");

    private static LoadConfig config() {
        return LoadConfig.of("t", "src1", ConnectionSpec.of("localhost", 3306, "root", ""), DIR);
    }

    @Test
    void startsFromTheTaskFilesDefaultsWithItsOwnDir() {
        assertEquals(LoaderConfig.defaults().withDir(DIR), config().loader());
    }

    @Test
    void aLoadersEntryReplacesEverySettingButTheDir() {
        LoaderConfig l = new LoaderConfig(3, Optional.of(Path.of("elsewhere")), OnDuplicate.REPLACE,
                DeferIndexes.ALWAYS, false, false, true);
        LoadConfig c = config().withLoader(l);
        assertEquals(l.withDir(DIR), c.loader());
        assertEquals(DIR, c.dir());
        assertEquals(3, c.poolSize());
        assertEquals(OnDuplicate.REPLACE, c.onDuplicate());
    }

    @Test
    void oneSettingByItsKey() {
        LoadConfig c = config().with(LoaderKeys.POOL_SIZE, 5).with(LoaderKeys.DISABLE_BINLOG, true);
        assertEquals(LoaderConfig.defaults().withDir(DIR).withPoolSize(5).with(LoaderKeys.DISABLE_BINLOG, true),
                c.loader());
        assertEquals(c.loader(), config().withPoolSize(5).withFastPath(true, true, true).loader());
        assertThrows(IllegalArgumentException.class, () -> config().with(LoaderKeys.DIR, Optional.of(DIR)));
    }

    @Test
    void nullOnDuplicateIsError() {
        assertEquals(OnDuplicate.ERROR, config().withOnDuplicate(OnDuplicate.IGNORE).withOnDuplicate(null)
                .onDuplicate());
    }

    @Test
    void theUnitsOwnChecksKeepTheirMessages() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> config().withPoolSize(0));
        assertEquals("LoadConfig.poolSize must be at least 1, got 0", e.getMessage());
    }
}
