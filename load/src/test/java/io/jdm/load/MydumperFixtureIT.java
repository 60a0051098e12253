package io.jdm.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Loads the committed mydumper 0.10 dump (double-quoted strings, raw binary bytes, unchunked file
 * names, a view with its placeholder table) plain and gzip-compressed, and compares with the
 * source it was made from ({@code mydumper/source.sql}).
 */
class MydumperFixtureIT {
    private static final String DB = MydumperFixtureGenerator.DB;
    private static final List<String> TABLES = List.of("t_types", "we;ird", "big");
    private static SqlServer source;
    private static SqlServer target;
    private static Path fixture;
    @TempDir
    static Path tmp;

    @BeforeAll
    static void setUp() throws Exception {
        ServerPair pair = TestServers.shared();
        source = pair.source();
        target = pair.target();
        MydumperFixtureGenerator.loadSource(source);
        fixture = Path.of(MydumperFixtureIT.class.getResource("/mydumper/dump/metadata").toURI()).getParent();
    }

    private LoadResult load(String task, Path dir, String targetDb) {
        target.execute("DROP DATABASE IF EXISTS " + targetDb, "CREATE DATABASE IF NOT EXISTS jdm_meta",
                "DROP TABLE IF EXISTS jdm_meta." + task + "_loader_checkpoint");
        LoadConfig cfg = LoadConfig.of(task, "src1", ConnectionSpec.of(target.host(), target.port(), "root", ""), dir)
                .withPoolSize(2).withRouter(t -> new TableName(targetDb, t.table()));
        return new LoadUnit(cfg).run();
    }

    private void assertSameAsSource(String targetDb) throws Exception {
        try (Connection s = source.connect(); Connection t = target.connect()) {
            for (String table : TABLES) {
                TestData.assertSameRows(s, new TableName(DB, table), t, new TableName(targetDb, table));
            }
            TestData.assertSameRows(s, new TableName(DB, "v_types"), t, new TableName(targetDb, "v_types"));
            assertEquals(1, TestData.count(t, "SELECT COUNT(*) FROM information_schema.VIEWS WHERE TABLE_SCHEMA = '"
                    + targetDb + "' AND TABLE_NAME = 'v_types'"));
        }
    }

    @Test
    void thePlainMydumperDumpLoadsIdentically() throws Exception {
        LoadResult r = load("mydumper_plain", fixture, "MydumperFixtureIT_plain");
        assertEquals(3, r.files());
        assertEquals(4 + 3 + 60, r.rows());
        assertNotNull(r.position());
        assertEquals("mysql-bin.000001", r.position().file());
        assertSameAsSource("MydumperFixtureIT_plain");
    }

    @Test
    void theGzipCompressedMydumperDumpLoadsIdentically() throws Exception {
        Path dir = tmp.resolve("gz");
        Files.createDirectories(dir);
        try (var files = Files.list(fixture)) {
            for (Path p : files.toList()) {
                String name = p.getFileName().toString();
                if (name.endsWith(".sql") && !name.contains("-schema")) {
                    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(dir.resolve(name + ".gz")))) {
                        Files.copy(p, out);
                    }
                } else {
                    Files.copy(p, dir.resolve(name));
                }
            }
        }
        LoadResult r = load("mydumper_gz", dir, "MydumperFixtureIT_gz");
        assertEquals(3, r.files());
        assertTrue(r.bytes() > 0);
        assertSameAsSource("MydumperFixtureIT_gz");
    }
}
