package io.jdm.dump;

import io.jdm.embedded.Seq;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.jdm.common.error.FatalException;
import io.jdm.common.error.JdmException;
import io.jdm.common.schema.SchemaScope;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** What the user sees when the dump cannot finish: one line naming what failed, and no metadata. */
class DumpFailuresIT {
    private static final String DB = "DumpFailuresIT";
    private static SqlServer source;

    @TempDir
    Path tmp;

    @BeforeEach
    void setUp() {
        source = TestServers.shared().source();
        source.freshDatabase(DB);
        source.execute("USE `" + DB + "`",
                "CREATE TABLE keep (id INT PRIMARY KEY, v VARCHAR(20))",
                "INSERT INTO keep SELECT seq, CONCAT('v', seq) FROM " + Seq.upTo(3000),
                "CREATE TABLE victim (id INT PRIMARY KEY, v VARCHAR(20))",
                "INSERT INTO victim SELECT seq, CONCAT('x', seq) FROM " + Seq.upTo(3000),
                "ANALYZE TABLE keep, victim");
    }

    private DumpConfig config(Path dir) {
        return DumpConfig.defaults("fail", DumpTestSupport.spec(source), dir)
                .withTableFilter((db, tbl) -> db.equals(DB)).withThreads(2);
    }

    private static void assertOneLine(JdmException e) {
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        assertTrue(e.getMessage().startsWith("task fail dump: "), e.getMessage());
    }

    @Test
    void unwritableDirectoryIsOneLineAndNoMetadata() throws Exception {
        Path file = Files.writeString(tmp.resolve("a-file"), "x");
        Path dir = file.resolve("dump");
        FatalException e = assertThrows(FatalException.class, () -> new DumpUnit(config(dir)).run());
        assertOneLine(e);
        assertTrue(e.getMessage().contains("cannot write to output directory " + dir), e.getMessage());
        assertFalse(Files.exists(dir.resolve("metadata")));
    }

    @Test
    void aFlushDumpOverAnIncompleteOneSaysInOneLineThatItsSnapshotIsGone() throws Exception {
        Path dir = tmp.resolve("gone");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("DumpFailuresIT.keep.000000001.sql"), "INSERT INTO keep VALUES (1,'a');\n");
        Logger log = (Logger) LoggerFactory.getLogger(OutputDirectory.class);
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        log.addAppender(lines);
        try {
            new DumpUnit(config(dir)).run();
        } finally {
            log.detachAppender(lines);
        }
        List<String> said = lines.list.stream().map(ILoggingEvent::getFormattedMessage)
                .filter(m -> m.contains("snapshot is gone")).toList();
        assertEquals(1, said.size(), lines.list.toString());
        assertFalse(said.get(0).contains("\n"), said.get(0));
        assertTrue(said.get(0).contains("dumping again from the start"), said.get(0));
    }

    @Test
    void rerunOverAnIncompleteDumpStartsClean() throws Exception {
        Path dir = tmp.resolve("rerun");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("DumpFailuresIT.gone.000000007.sql"), "INSERT INTO stale VALUES (1);\n");
        Files.writeString(dir.resolve("DumpFailuresIT.gone-schema.sql"), "CREATE TABLE gone (id INT);\n");
        Files.writeString(dir.resolve("notes.txt"), "not ours");
        new DumpUnit(config(dir)).run();
        List<String> names = DumpTestSupport.fileNames(dir);
        assertFalse(names.contains("DumpFailuresIT.gone.000000007.sql"), names.toString());
        assertFalse(names.contains("DumpFailuresIT.gone-schema.sql"), names.toString());
        assertTrue(names.contains("notes.txt"), "files that are not the dump's are left alone");
        assertTrue(names.contains("metadata"));
        assertTrue(names.contains("DumpFailuresIT.keep.000000001.sql"));
    }

    /**
     * MariaDB's system-versioned tables and sequences are not base tables: a dump that listed base
     * tables only left them out without a word. Selected, they stop the dump with one line naming
     * them; left out by the filter, the dump goes on without them.
     */
    @Test
    void aSystemVersionedTableOrASequenceSelectedStopsTheDumpNamingThem() throws Exception {
        assumeTrue(source.flavor().equals("mariadb"), "system versioning and sequences are MariaDB's");
        source.execute("USE `" + DB + "`",
                "CREATE TABLE hist (id INT PRIMARY KEY, v INT) WITH SYSTEM VERSIONING",
                "INSERT INTO hist VALUES (1, 1)",
                "CREATE SEQUENCE seq1");
        Path dir = tmp.resolve("uncopied");
        FatalException e = assertThrows(FatalException.class, () -> new DumpUnit(config(dir)).run());
        assertOneLine(e);
        assertTrue(e.getMessage().contains("`DumpFailuresIT`.`hist` (system versioned), `DumpFailuresIT`.`seq1`"
                + " (sequence)") && e.getMessage().contains("ignore-tables"), e.getMessage());
        assertFalse(Files.exists(dir.resolve("metadata")));

        Path without = tmp.resolve("without");
        new DumpUnit(config(without).withTableFilter((db, tbl) -> db.equals(DB) && !tbl.equals("hist")
                && !tbl.equals("seq1"))).run();
        List<String> names = DumpTestSupport.fileNames(without);
        assertTrue(names.contains("metadata") && names.contains("DumpFailuresIT.keep-schema.sql"), names.toString());
        assertFalse(names.stream().anyMatch(n -> n.contains("hist") || n.contains("seq1")), names.toString());
    }

    @Test
    void tableDroppedAfterTheSnapshotFailsNamingIt() throws Exception {
        Path dir = tmp.resolve("dropped");
        DumpUnit unit = new DumpUnit(config(dir));
        unit.afterSnapshot = () -> source.execute("DROP TABLE `" + DB + "`.victim");
        JdmException e = assertThrows(JdmException.class, unit::run);
        assertOneLine(e);
        assertTrue(e.getMessage().contains("`DumpFailuresIT`.`victim` was dropped during the dump"), e.getMessage());
        assertFalse(Files.exists(dir.resolve("metadata")));
    }

    @Test
    void tableAlteredAfterTheSnapshotFailsNamingIt() throws Exception {
        Path dir = tmp.resolve("altered");
        DumpUnit unit = new DumpUnit(config(dir).withRows(500));
        unit.afterSnapshot = () -> source.execute("ALTER TABLE `" + DB + "`.victim ADD COLUMN extra INT DEFAULT 7");
        JdmException e = assertThrows(JdmException.class, unit::run);
        assertOneLine(e);
        assertTrue(e.getMessage().contains("`DumpFailuresIT`.`victim` was altered during the dump"), e.getMessage());
        assertFalse(Files.exists(dir.resolve("metadata")));
    }

    /**
     * A selection that names its schemas (as a task's block-allow-list does) has the columns read
     * beside the table list, on another snapshot connection: the same alteration is still caught.
     */
    @Test
    void tableAlteredAfterTheSnapshotFailsNamingItWhenTheColumnsAreReadBesideTheList() throws Exception {
        Path dir = tmp.resolve("altered-scoped");
        DumpUnit unit = new DumpUnit(config(dir).withRows(500).withTableFilter(new SchemaScope() {
            @Override
            public boolean test(String db, String tbl) {
                return db.equals(DB);
            }

            @Override
            public boolean mayHoldSelected(String schema) {
                return schema.equals(DB);
            }
        }));
        unit.afterSnapshot = () -> source.execute("ALTER TABLE `" + DB + "`.victim ADD COLUMN extra INT DEFAULT 7");
        JdmException e = assertThrows(JdmException.class, unit::run);
        assertOneLine(e);
        assertTrue(e.getMessage().contains("`DumpFailuresIT`.`victim` was altered during the dump"), e.getMessage());
        assertFalse(Files.exists(dir.resolve("metadata")));
    }

    @Test
    void rowsChangedAfterTheSnapshotAreDumpedAsTheSnapshotSawThem() throws Exception {
        Path dir = tmp.resolve("changed");
        DumpUnit unit = new DumpUnit(config(dir).withRows(500));
        unit.afterSnapshot = () -> source.execute("UPDATE `" + DB + "`.victim SET v = 'changed'",
                "DELETE FROM `" + DB + "`.keep WHERE id > 10");
        DumpResult r = unit.run();
        assertEquals(6000, r.rows());
        for (String f : DumpTestSupport.fileNames(dir)) {
            if (f.startsWith("DumpFailuresIT.victim.")) {
                assertFalse(Files.readString(dir.resolve(f)).contains("changed"), f);
            }
        }
    }

    /** The ids of the connections that hold a transaction (the snapshot connections), minus our own. */
    private static List<Long> snapshotConnections() throws Exception {
        List<Long> ids = new ArrayList<>();
        try (Connection c = DumpTestSupport.open(source); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT trx_mysql_thread_id FROM information_schema.INNODB_TRX"
                     + " WHERE trx_mysql_thread_id <> CONNECTION_ID()")) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        return ids;
    }

    private static void kill(long id) {
        source.execute("KILL CONNECTION " + id);
    }

    @Test
    void aLostConnectionIsReplacedBySpareInTheSameSnapshot() throws Exception {
        Path dir = tmp.resolve("one-lost");
        DumpUnit unit = new DumpUnit(config(dir).withRows(500));
        List<Long> seen = new ArrayList<>();
        unit.afterSnapshot = () -> {
            try {
                seen.addAll(snapshotConnections());
                kill(seen.get(0));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
        DumpResult r = unit.run();
        assertEquals(3, seen.size(), "threads + 1 snapshot connections: " + seen);
        assertEquals(6000, r.rows());
        SqlServer target = TestServers.shared().target();
        DumpTestSupport.load(dir, target);
        for (String t : List.of("keep", "victim")) {
            TableName name = new TableName(DB, t);
            assertEquals(DumpTestSupport.rows(source, name), DumpTestSupport.rows(target, name));
        }
    }

    @Test
    void losingEverySnapshotConnectionFailsNamingTableAndChunk() throws Exception {
        Path dir = tmp.resolve("all-lost");
        DumpUnit unit = new DumpUnit(config(dir).withRows(500));
        unit.afterSnapshot = () -> {
            try {
                snapshotConnections().forEach(DumpFailuresIT::kill);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
        JdmException e = assertThrows(JdmException.class, unit::run);
        assertOneLine(e);
        assertTrue(e.getMessage().matches(".*`DumpFailuresIT`\\.`(keep|victim)`.*(chunk \\d+|snapshot).*"),
                e.getMessage());
        assertTrue(e.getMessage().contains("rerun the dump"), e.getMessage());
        assertFalse(Files.exists(dir.resolve("metadata")));
    }

    @Test
    void stopEndsTheDumpWithoutMetadata() throws Exception {
        Path dir = tmp.resolve("stopped");
        DumpUnit unit = new DumpUnit(config(dir));
        unit.afterSnapshot = unit::stop;
        JdmException e = assertThrows(JdmException.class, unit::run);
        assertOneLine(e);
        assertTrue(e.getMessage().contains("stopped"), e.getMessage());
        assertFalse(Files.exists(dir.resolve("metadata")));
    }
}
