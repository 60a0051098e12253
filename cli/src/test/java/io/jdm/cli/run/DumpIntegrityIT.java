package io.jdm.cli.run;

import io.jdm.embedded.Seq;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.config.Compression;
import io.jdm.common.dumpdir.FileManifest;
import io.jdm.common.error.FatalException;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.dump.DumpConfig;
import io.jdm.dump.DumpUnit;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import io.jdm.load.LoadConfig;
import io.jdm.load.LoadUnit;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** jdm's dump records each data file; the load refuses a damaged one before loading a row of it. */
class DumpIntegrityIT {
    private static final String DB = "dump_integrity";
    /** The second chunk of {@code t}: ids 101..200. */
    private static final String FILE = DB + ".t.000000002.sql";
    private static SqlServer source;
    private static SqlServer target;
    @TempDir
    static Path tmp;
    private static Path dump;

    @BeforeAll
    static void fixture() throws Exception {
        ServerPair pair = TestServers.shared();
        source = pair.source();
        target = pair.target();
        source.freshDatabase(DB);
        source.execute("CREATE TABLE " + DB + ".t (id INT PRIMARY KEY, v VARCHAR(50))",
                "INSERT INTO " + DB + ".t SELECT seq, CONCAT('v;', seq) FROM " + Seq.upTo(400),
                "CREATE TABLE " + DB + ".u (id INT PRIMARY KEY)", "INSERT INTO " + DB + ".u VALUES (1), (2)",
                // the dump splits by the table's row estimate: make it current, or t may be one chunk
                "ANALYZE TABLE " + DB + ".t");
        dump = tmp.resolve("dump");
        new DumpUnit(DumpConfig.defaults("integrity", spec(source), dump).withThreads(1).withRows(100)
                .withStatementSize(1024).withTableFilter((s, t) -> s.equals(DB))).run();
        assertTrue(Files.exists(dump.resolve(FileManifest.NAME)));
        assertTrue(Files.exists(dump.resolve(FILE)));
    }

    private static ConnectionSpec spec(SqlServer s) {
        return ConnectionSpec.of(s.host(), s.port(), "root", "");
    }

    private static LoadConfig config(String task, Path dir) {
        target.execute("DROP DATABASE IF EXISTS " + DB, "CREATE DATABASE IF NOT EXISTS jdm_meta",
                "DROP TABLE IF EXISTS jdm_meta." + task + "_loader_checkpoint");
        return LoadConfig.of(task, "s1", spec(target), dir).withPoolSize(1).withTransactionBytes(1);
    }

    private static Path copyOfDump(String name) throws Exception {
        Path dir = tmp.resolve(name);
        Files.createDirectories(dir);
        try (var s = Files.list(dump)) {
            for (Path p : s.toList()) {
                Files.copy(p, dir.resolve(p.getFileName()));
            }
        }
        return dir;
    }

    /** The target's rows of {@link #FILE}; 0 when the load stopped before creating the table. */
    private static long rowsOfTheFile() throws Exception {
        try (Connection c = target.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + DB + ".t WHERE id BETWEEN 101 AND 200")) {
            rs.next();
            return rs.getLong(1);
        } catch (java.sql.SQLException e) {
            if (e.getErrorCode() != 1146) {
                throw e;
            }
            return 0;
        }
    }

    private static FatalException refused(String task, Path dir) {
        FatalException e = assertThrows(FatalException.class, () -> new LoadUnit(config(task, dir)).run());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        assertTrue(e.getMessage().contains(FILE), e.getMessage());
        assertTrue(e.getMessage().contains("dump again"), e.getMessage());
        return e;
    }

    @Test
    void aFileCutAtAStatementBoundaryIsRefusedBeforeAnyOfItsRows() throws Exception {
        Path dir = copyOfDump("cut");
        byte[] b = Files.readAllBytes(dir.resolve(FILE));
        String s = new String(b, StandardCharsets.ISO_8859_1);
        int cut = s.lastIndexOf(";\n", s.length() - 3) + 2; // the file without its last statement
        Files.write(dir.resolve(FILE), Arrays.copyOf(b, cut));
        FatalException e = refused("integrity_cut", dir);
        assertTrue(e.getMessage().contains("is " + cut + " bytes but the dump wrote " + b.length), e.getMessage());
        assertEquals(0, rowsOfTheFile());
    }

    @Test
    void aFileWithOneByteChangedIsRefusedBeforeAnyOfItsRows() throws Exception {
        Path dir = copyOfDump("byte");
        byte[] b = Files.readAllBytes(dir.resolve(FILE));
        int at = new String(b, StandardCharsets.ISO_8859_1).indexOf("'v;1") + 3;
        b[at] = (byte) (b[at] == '9' ? '8' : b[at] + 1);
        Files.write(dir.resolve(FILE), b);
        FatalException e = refused("integrity_byte", dir);
        assertTrue(e.getMessage().contains("CRC32C"), e.getMessage());
        assertEquals(0, rowsOfTheFile());
    }

    @Test
    void aListedFileThatIsMissingIsRefused() throws Exception {
        Path dir = copyOfDump("missing");
        Files.delete(dir.resolve(FILE));
        FatalException e = refused("integrity_missing", dir);
        assertTrue(e.getMessage().contains("missing"), e.getMessage());
        assertEquals(0, rowsOfTheFile());
    }

    @Test
    void aDataFileThatIsNotListedIsRefused() throws Exception {
        Path dir = copyOfDump("extra");
        Files.copy(dir.resolve(FILE), dir.resolve(DB + ".t.000000009.sql"));
        FatalException e = assertThrows(FatalException.class, () -> new LoadUnit(config("integrity_extra", dir)).run());
        assertTrue(e.getMessage().contains(DB + ".t.000000009.sql is not listed"), e.getMessage());
    }

    @Test
    void aDumpWithoutTheRecordLoadsAsBefore() throws Exception {
        Path dir = copyOfDump("unrecorded");
        Files.delete(dir.resolve(FileManifest.NAME));
        new LoadUnit(config("integrity_none", dir)).run();
        assertEquals(100, rowsOfTheFile());
        try (Connection c = target.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*), SUM(id) FROM " + DB + ".t")) {
            rs.next();
            assertEquals(400, rs.getLong(1));
            assertEquals(400 * 401 / 2, rs.getLong(2));
        }
    }

    @Test
    void anIntactDumpLoadsEveryRowAndTheCheckpointHoldsEachFilesRowCount() throws Exception {
        new LoadUnit(config("integrity_ok", dump)).run();
        try (Connection c = target.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT rows_loaded FROM jdm_meta.integrity_ok_loader_checkpoint "
                     + "WHERE file = '" + FILE + "'")) {
            assertTrue(rs.next());
            assertEquals(100, rs.getLong(1));
        }
        assertEquals(100, rowsOfTheFile());
    }

    @Test
    void aCompressedDumpIsCheckedAsItLoadsAndLoadsEveryRow() throws Exception {
        long inserted = comInsert();
        new LoadUnit(config("integrity_plain", dump)).run();
        long bulkInserts = comInsert() - inserted; // the checkpoint's own rows: the data goes as LOAD DATA
        for (Compression c : new Compression[] {Compression.GZIP,
                Compression.ZSTD}) {
            Path dir = tmp.resolve("compressed-" + c);
            new DumpUnit(DumpConfig.defaults("integrity", spec(source), dir).withThreads(1).withRows(100)
                    .withStatementSize(1024).withCompress(c).withTableFilter((s, t) -> s.equals(DB))).run();
            LoadConfig config = config("integrity_" + c.name().toLowerCase(), dir);
            long inserts = comInsert();
            new LoadUnit(config).run();
            // the statements path (which a wrong checksum falls back to) sends the data's INSERTs too
            assertEquals(bulkInserts, comInsert() - inserts, c + ": the files load as LOAD DATA, their checksums"
                    + " matching");
            try (Connection conn = target.connect(); Statement st = conn.createStatement();
                 ResultSet rs = st.executeQuery("SELECT COUNT(*), SUM(id), SUM(CRC32(v)) FROM " + DB + ".t")) {
                rs.next();
                assertEquals(400, rs.getLong(1), c.toString());
                assertEquals(400 * 401 / 2, rs.getLong(2), c.toString());
                try (Connection sc = source.connect(); Statement ss = sc.createStatement();
                     ResultSet want = ss.executeQuery("SELECT SUM(CRC32(v)) FROM " + DB + ".t")) {
                    want.next();
                    assertEquals(want.getLong(1), rs.getLong(3), c.toString());
                }
            }
        }
    }

    private static long comInsert() throws Exception {
        try (Connection conn = target.connect(); Statement st = conn.createStatement();
             ResultSet rs = st.executeQuery("SHOW GLOBAL STATUS LIKE 'Com_insert'")) {
            rs.next();
            return rs.getLong(2);
        }
    }
}
