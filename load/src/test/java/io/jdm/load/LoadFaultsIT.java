package io.jdm.load;

import io.jdm.embedded.Seq;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.dumpdir.DumpMetadata;
import io.jdm.common.error.FatalException;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.LocalDateTime;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Damaged dump files and a target that refuses a table or a statement. */
class LoadFaultsIT {
    private static final String DB = "LoadFaultsIT_src";
    private static final String FILE = DB + ".t.000000001.sql";
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
                "INSERT INTO " + DB + ".t SELECT seq, CONCAT('v;', seq) FROM " + Seq.upTo(1000));
        dump = tmp.resolve("dump");
        try (Connection c = source.connect()) {
            FixtureDumper.dump(c, DB, dump, 50, 1000, t -> "");
        }
    }

    private static LoadConfig config(String task, Path dir) {
        target.execute("DROP DATABASE IF EXISTS " + DB, "DROP DATABASE IF EXISTS LoadFaultsIT_x",
                "CREATE DATABASE IF NOT EXISTS jdm_meta", "DROP TABLE IF EXISTS jdm_meta." + task + "_loader_checkpoint");
        return LoadConfig.of(task, "src1", ConnectionSpec.of(target.host(), target.port(), "root", ""), dir)
                .withPoolSize(2).withTransactionBytes(1);
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

    /** Byte offset where statement number {@code n} (0-based, counting INSERTs) starts: right after the previous ';'. */
    private static int insertStart(byte[] file, int n) {
        String s = new String(file, StandardCharsets.ISO_8859_1);
        int at = -1;
        for (int i = 0; i <= n; i++) {
            at = s.indexOf("INSERT INTO", at + 1);
        }
        return s.lastIndexOf(';', at) + 1;
    }

    @Test
    void aTruncatedFileStopsAtTheLastCompleteStatementAndResumesOnceRepaired() throws Exception {
        Path dir = copyOfDump("truncated");
        byte[] original = Files.readAllBytes(dir.resolve(FILE));
        int cutStatement = insertStart(original, 9);
        Files.write(dir.resolve(FILE), Arrays.copyOf(original, cutStatement + 200));
        LoadConfig cfg = config("faults_trunc", dir);
        FatalException e = assertThrows(FatalException.class, () -> new LoadUnit(cfg).run());
        assertTrue(e.getMessage().contains("file " + FILE + " at byte offset " + cutStatement + ":"), e.getMessage());
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        try (Connection t = target.connect()) {
            assertEquals(9 * 50, TestData.count(t, "SELECT COUNT(*) FROM " + DB + ".t"), "nothing partial executed");
            assertEquals(cutStatement, TestData.count(t, "SELECT `offset` FROM jdm_meta.faults_trunc_loader_checkpoint"
                    + " WHERE file = '" + FILE + "'"));
        }
        Files.write(dir.resolve(FILE), original);
        new LoadUnit(cfg).run();
        try (Connection s = source.connect(); Connection t = target.connect()) {
            TestData.assertSameRows(s, new TableName(DB, "t"), t, new TableName(DB, "t"));
        }
    }

    @Test
    void aCorruptCompressedFileIsNamedWithTheOffsetReached() throws Exception {
        Path dir = tmp.resolve("gz");
        try (Connection c = source.connect()) {
            FixtureDumper.dump(c, DB, dir, 50, 1000, t -> ".gz");
        }
        Path gz = dir.resolve(FILE + ".gz");
        byte[] b = Files.readAllBytes(gz);
        for (int i = b.length / 2; i < b.length / 2 + 64; i++) {
            b[i] ^= 0x5a;
        }
        Files.write(gz, b);
        FatalException e = assertThrows(FatalException.class, () -> new LoadUnit(config("faults_gz", dir)).run());
        assertTrue(e.getMessage().matches(".*file " + FILE + "\\.gz at byte offset \\d+: .*"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }

    @Test
    void aTableTheTargetRefusesIsNamedWithItsFileAndOffset() throws Exception {
        Path dir = tmp.resolve("badtable");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("LoadFaultsIT_x-schema-create.sql"), "CREATE DATABASE `LoadFaultsIT_x`;\n");
        String header = "/*!40101 SET NAMES binary*/;\n";
        Files.writeString(dir.resolve("LoadFaultsIT_x.bad-schema.sql"),
                header + "CREATE TABLE `bad` (id INT, v VARCHAR(10) CHARACTER SET no_such_charset);\n");
        new DumpMetadata(LocalDateTime.now(), LocalDateTime.now(), BinlogPosition.of("mysql-bin.000001", 4), null)
                .writeTo(dir);
        FatalException e = assertThrows(FatalException.class, () -> new LoadUnit(config("faults_table", dir)).run());
        assertTrue(e.getMessage().contains("target refused table `LoadFaultsIT_x`.`bad` (file LoadFaultsIT_x.bad-schema.sql"
                + " at byte offset " + (header.length() - 1) + ")"), e.getMessage());
        assertTrue(e.getMessage().contains("no_such_charset"), e.getMessage());
    }

    @Test
    void aStatementTheTargetRefusesIsNamedAndTheCheckpointStaysAtTheStatementBefore() throws Exception {
        Path dir = copyOfDump("badrow");
        byte[] original = Files.readAllBytes(dir.resolve(FILE));
        int third = insertStart(original, 2);
        String bad = new String(original, StandardCharsets.UTF_8).substring(0, third)
                + "\nINSERT INTO `t` VALUES (100001,'ok'),('not a number','x');\n";
        Files.writeString(dir.resolve(FILE), bad);
        LoadConfig cfg = config("faults_row", dir);
        FatalException e = assertThrows(FatalException.class, () -> new LoadUnit(cfg).run());
        assertTrue(e.getMessage().contains("file " + FILE + " at byte offset " + third + ": "), e.getMessage());
        assertTrue(e.getMessage().contains("error 1366"), e.getMessage());
        try (Connection t = target.connect()) {
            assertEquals(100, TestData.count(t, "SELECT COUNT(*) FROM " + DB + ".t"));
            assertEquals(third, TestData.count(t, "SELECT `offset` FROM jdm_meta.faults_row_loader_checkpoint"));
        }
    }

    @Test
    void aStatementNamingAnotherTableIsRefusedAndThatTableIsUnchanged() throws Exception {
        Path dir = copyOfDump("othertable");
        byte[] original = Files.readAllBytes(dir.resolve(FILE));
        int third = insertStart(original, 2);
        String text = new String(original, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(FILE), text.substring(0, third)
                + "\nINSERT INTO `LoadFaultsIT_x`.`u` VALUES (1,'stray');\n" + text.substring(third));
        LoadConfig cfg = config("faults_other", dir);
        target.execute("CREATE DATABASE LoadFaultsIT_x", "CREATE TABLE LoadFaultsIT_x.u (id INT PRIMARY KEY, v TEXT)");
        FatalException e = assertThrows(FatalException.class, () -> new LoadUnit(cfg).run());
        assertTrue(e.getMessage().contains("file " + FILE + " at byte offset " + third + ": "), e.getMessage());
        assertTrue(e.getMessage().contains("inserts into `LoadFaultsIT_x`.`u`, not into the file's table `"
                + DB + "`.`t`"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        try (Connection t = target.connect()) {
            assertEquals(0, TestData.count(t, "SELECT COUNT(*) FROM LoadFaultsIT_x.u"));
        }
    }
}
