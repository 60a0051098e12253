package io.jdm.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.error.JdmException;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table whose engine keeps rows outside transactions (MyISAM here) is loaded once, never twice:
 * its files go statement by statement, also where values in a later INSERT (an ENUM's index 0 from
 * a non-strict source, a {@code b'1'} literal) would send a LOAD DATA group back to the statements
 * after it had written rows a rollback cannot take back. A statement a killed run left half written
 * is written again over its own rows when the table has a key, and stops the load when it has none.
 */
class NonTransactionalLoadIT {
    private static final int ROWS_PER_STATEMENT = 1000;
    private static SqlServer source;
    private static SqlServer target;
    @TempDir
    static Path tmp;

    @BeforeAll
    static void servers() {
        ServerPair pair = TestServers.shared();
        source = pair.source();
        target = pair.target();
    }

    @Test
    void aMyIsamTableWithAndWithoutAKeyLoadsEveryRowOnceWithLocalInfileOnAndOff() throws Exception {
        for (String key : new String[] {"PRIMARY KEY", ""}) {
            for (int infile : new int[] {1, 0}) {
                String db = "NonTxnLoadIT_" + (key.isEmpty() ? "nokey" : "pk") + infile;
                String create = "CREATE TABLE `t` (id INT NOT NULL " + key + ", e ENUM('a','b'), b BIT(4), v VARCHAR(20))"
                        + " ENGINE=MyISAM";
                Path dir = HandDump.write(source, target, tmp, "", db, create, file(1, 3), file(4, 1));
                target.execute("SET GLOBAL local_infile = " + infile);
                try {
                    long loads = HandDump.comLoad(target);
                    LoadResult r = new LoadUnit(HandDump.config(target, "nontxn", dir)).run();
                    assertTrue(r.completed(), db);
                    assertEquals(0, HandDump.comLoad(target) - loads, "no LOAD DATA into a MyISAM table: " + db);
                } finally {
                    target.execute("SET GLOBAL local_infile = 1");
                }
                assertEquals(List.of("4001"), target.rows("SELECT COUNT(*) FROM `" + db + "`.t"), db);
                HandDump.assertSameAsSource(source, target, db);
                assertEquals(List.of("1|" + (ROWS_PER_STATEMENT + 1) + "|"), target.rows("SELECT COUNT(*), MIN(id),"
                        + " HEX(e) FROM `" + db + "`.t WHERE e = 0"), "the ENUM's index 0 kept: " + db);
            }
        }
    }

    /** As a kill leaves it: the first statement announced in the checkpoint, half of its rows in the table. */
    @Test
    void aStatementLeftHalfWrittenIsWrittenAgainOverItsRowsWhenTheTableHasAKey() throws Exception {
        String db = "NonTxnLoadIT_doubt";
        String create = "CREATE TABLE `t` (id INT NOT NULL PRIMARY KEY, e ENUM('a','b'), b BIT(4), v VARCHAR(20))"
                + " ENGINE=MyISAM";
        Path dir = HandDump.write(source, target, tmp, "", db, create, file(1, 3));
        LoadConfig cfg = HandDump.config(target, "nontxn_doubt", dir);
        halfWritten(db, cfg, "nontxn_doubt");
        assertTrue(new LoadUnit(cfg).run().completed());
        HandDump.assertSameAsSource(source, target, db);
        assertEquals(List.of("finished|3001"), target.rows("SELECT status, rows_loaded FROM jdm_meta."
                + "nontxn_doubt_loader_checkpoint WHERE file LIKE '%.sql'"));
    }

    @Test
    void aStatementLeftHalfWrittenStopsTheLoadWhenTheTableHasNoKey() throws Exception {
        String db = "NonTxnLoadIT_doubt_nokey";
        String create = "CREATE TABLE `t` (id INT NOT NULL, e ENUM('a','b'), b BIT(4), v VARCHAR(20)) ENGINE=MyISAM";
        Path dir = HandDump.write(source, target, tmp, "", db, create, file(1, 3));
        LoadConfig cfg = HandDump.config(target, "nontxn_nokey", dir);
        halfWritten(db, cfg, "nontxn_nokey");
        String why = assertThrows(JdmException.class, new LoadUnit(cfg)::run).getMessage();
        assertTrue(why.contains("is MyISAM, which keeps rows outside transactions, and has no primary or NOT NULL"
                + " unique key") && why.contains("empty the table"), why);
        assertEquals(List.of("501"), target.rows("SELECT COUNT(*) FROM `" + db + "`.t"), "nothing written twice");
    }

    /**
     * Loads the table, then leaves it as a kill after the first statement's announcement and half its
     * rows would: the rows of its later statements gone, the checkpoint at that statement.
     */
    private static void halfWritten(String db, LoadConfig cfg, String task) throws Exception {
        assertTrue(new LoadUnit(cfg).run().completed());
        StatementLexer lexer = new StatementLexer(java.nio.file.Files.newInputStream(
                cfg.dir().resolve(io.jdm.common.dumpdir.DumpFileNames.dataFile(db, "t", 1, ""))));
        StatementLexer.Statement s;
        while (SqlText.kind(SqlText.decode((s = lexer.next()).text())) != SqlText.Kind.DATA) {
            // the header's session statements
        }
        long start = s.start();
        target.execute("DELETE FROM `" + db + "`.t WHERE id > 500",
                "UPDATE jdm_meta." + task + "_loader_checkpoint SET status = 'applying', `offset` = " + start
                        + ", rows_loaded = 0 WHERE file LIKE '%.sql'");
    }

    /**
     * A data file of {@code statements} INSERTs of {@link #ROWS_PER_STATEMENT} rows from id
     * {@code first}; the second statement's first row holds an ENUM's index 0 (an invalid value
     * stored by the non-strict source) and the third statement writes its BIT as {@code b'1'}: by
     * LOAD DATA, the rows of the first two would be sent before the third ends the transfer.
     */
    private static byte[] file(int firstStatement, int statements) {
        StringBuilder sb = new StringBuilder(HandDump.HEADER);
        for (int s = firstStatement; s < firstStatement + statements; s++) {
            sb.append("INSERT INTO `t` VALUES ");
            for (int i = 0; i < ROWS_PER_STATEMENT + (s == 1 ? 1 : 0); i++) {
                int id = (s - 1) * ROWS_PER_STATEMENT + i + (s == 1 ? 0 : 1);
                String e = s == 2 && i == 0 ? "''" : i % 2 == 0 ? "'a'" : "'b'";
                String b = s == 3 ? "b'1'" : "NULL";
                sb.append(i > 0 ? "," : "").append('(').append(id).append(',').append(e).append(',').append(b)
                        .append(",'v").append(id).append("')");
            }
            sb.append(";\n");
        }
        return sb.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
