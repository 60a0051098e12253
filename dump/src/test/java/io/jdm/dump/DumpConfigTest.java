package io.jdm.dump;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.jdm.common.config.Compression;
import io.jdm.common.config.Consistency;
import io.jdm.common.config.MydumperConfig;
import io.jdm.common.config.MydumperKeys;
import io.jdm.common.jdbc.ConnectionSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@link DumpConfig} holds the task file's {@code mydumpers:} entry and changes its settings by key. */
class DumpConfigTest {
    private static final Path DIR = Path.of("out");
    private static final ConnectionSpec SOURCE = ConnectionSpec.of("localhost", 3306, "root", "");

    private static DumpConfig config() {
        return DumpConfig.defaults("t", SOURCE, DIR);
    }

    @Test
    void holdsTheMydumpersEntryAsRead() {
        MydumperConfig m = new MydumperConfig(2, 10, 300, 5, Consistency.FLUSH, Optional.of("id > 1"),
                Compression.GZIP, Path.of("d"));
        DumpConfig c = DumpConfig.of("t", "s1", SOURCE, m);
        assertEquals(m, c.mydumper());
        assertEquals(Path.of("d"), c.outputDir());
        assertEquals(List.of(2, 10L, 300L, 5L, Consistency.FLUSH, "id > 1", Compression.GZIP),
                List.of(c.threads(), c.rows(), c.statementSize(), c.chunkFileSizeMb(), c.consistency(), c.where(),
                        c.compress()));
    }

    @Test
    void oneSettingByItsKeyAndTheOutputDirIsTheEntrysDir() {
        DumpConfig c = config().with(MydumperKeys.THREADS, 3).withRows(7).withOutputDir(Path.of("x"));
        assertEquals(MydumperConfig.defaults("t").withThreads(3).withRows(7).withDir(Path.of("x")), c.mydumper());
        assertThrows(IllegalArgumentException.class, () -> config().with(MydumperKeys.DIR, Optional.of(DIR)));
    }

    @Test
    void whereIsStrippedAndBlankIsNone() {
        assertEquals("a = 1", config().withWhere("  a = 1 ").where());
        assertEquals(Optional.of("a = 1"), config().withWhere("  a = 1 ").mydumper().where());
        assertNull(config().withWhere(" ").where());
        assertNull(config().withWhere("a").withWhere(null).where());
        assertEquals(Compression.NONE, config().withCompress(Compression.ZSTD).withCompress(null).compress());
    }

    @Test
    void theUnitsOwnChecksKeepTheirMessages() {
        assertEquals("DumpConfig.threads must be at least 1, got 0",
                assertThrows(IllegalArgumentException.class, () -> config().withThreads(0)).getMessage());
        assertEquals("DumpConfig.rows must be >= 0 (0 = no chunking), got -1",
                assertThrows(IllegalArgumentException.class, () -> config().withRows(-1)).getMessage());
        assertEquals("DumpConfig.statementSize must be 1..1073741824 bytes, got 0",
                assertThrows(IllegalArgumentException.class, () -> config().withStatementSize(0)).getMessage());
        assertEquals("DumpConfig.chunkFileSizeMb must be >= 0 (0 = no limit), got -1",
                assertThrows(IllegalArgumentException.class, () -> config().withChunkFileSizeMb(-1)).getMessage());
    }
}
