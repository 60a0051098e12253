package io.jdm.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A gh-ost migration (its statements, in its order: ghost and changelog tables, the ghost ALTER,
 * the row copy into the ghost table beside writes to the real one, the cut-over) replicated by
 * {@code jdm run} processes killed -9 at each step: right after the checkpoint passed the ghost
 * ALTER, between the two renames of gh-ost's two-step cut-over, after the first recorded ALTER ran
 * at the cut-over (the DDL applier's halt switch), and right after the cut-over. Each next process
 * must apply the recorded ALTERs to the real table exactly once (an unnamed index applied twice
 * would show as a second index), and source and target end equal as SHOW CREATE TABLE text and as
 * hex values. A kill lands where the process is: a marker row, written on the source after the
 * step and awaited on the target, says the single writer's checkpoint is past the step.
 */
class OnlineDdlKillIT {
    @TempDir
    Path dir;

    private final SqlServer source = TestServers.shared().source();

    @Test
    void atomicCutOverKilledAfterTheGhostAlterAndAfterTheCutOver() throws Exception {
        try (OnlineDdlTask m = new OnlineDdlTask(dir, "onlineddl_atomic", "onlineddl-atomic", "")) {
            atomic(m);
        }
    }

    private void atomic(OnlineDdlTask m) throws Exception {
        Process p = m.start("run1", List.of());
        m.marker(p, 1);
        String q = m.q;
        source.execute("create /* gh-ost */ table " + q + "`_t_ghc` (id bigint auto_increment primary key,"
                        + " hint varchar(64) not null, value text, unique key (hint))",
                "create /* gh-ost */ table " + q + "`_t_gho` like " + q + "`t`",
                "alter /* gh-ost */ table " + q + "`_t_gho` add column c int not null default 7, add index (v)",
                "insert into " + q + "`_t_ghc` (hint, value) values ('state', 'migrating')");
        m.marker(p, 2);
        m.kill(p); // the checkpoint is past the ghost ALTER

        p = m.start("run2", List.of());
        source.execute("INSERT INTO " + q + "t VALUES (4, 'd')",
                "insert /* gh-ost */ ignore into " + q + "`_t_gho` (id, v) select id, v from " + q + "`t`",
                "UPDATE " + q + "t SET v = 'bb' WHERE id = 2",
                "update /* gh-ost */ " + q + "`_t_gho` set v = 'bb' where id = 2",
                "rename /* gh-ost */ table " + q + "`t` to " + q + "`_t_del`, " + q + "`_t_gho` to " + q + "`t`");
        m.marker(p, 3);
        m.kill(p); // right after the cut-over

        p = m.start("run3", List.of());
        source.execute("drop /* gh-ost */ table if exists " + q + "`_t_del`",
                "drop /* gh-ost */ table if exists " + q + "`_t_ghc`",
                "INSERT INTO " + q + "t VALUES (5, 'e', 50)", "UPDATE " + q + "t SET c = 8 WHERE id = 1");
        m.marker(p, 4);
        m.assertSame(List.of("m", "t"));
        m.stop(p);
    }

    @Test
    void twoStepCutOverKilledBetweenTheRenamesWhileApplyingAndAfter() throws Exception {
        try (OnlineDdlTask m = new OnlineDdlTask(dir, "onlineddl_twostep", "onlineddl-twostep", "")) {
            twoStep(m);
        }
    }

    private void twoStep(OnlineDdlTask m) throws Exception {
        String q = m.q;
        Process p = m.start("run1", List.of());
        m.marker(p, 1);
        source.execute("create /* gh-ost */ table " + q + "`_t_gho` like " + q + "`t`",
                "alter /* gh-ost */ table " + q + "`_t_gho` add index (v)",
                "alter /* gh-ost */ table " + q + "`_t_gho` add column c int not null default 7",
                "insert /* gh-ost */ ignore into " + q + "`_t_gho` (id, v) select id, v from " + q + "`t`",
                "INSERT INTO " + q + "t VALUES (4, 'd')",
                "insert /* gh-ost */ into " + q + "`_t_gho` (id, v) values (4, 'd')",
                "rename /* gh-ost */ table " + q + "`t` to " + q + "`_t_del`");
        m.marker(p, 2);
        m.kill(p); // between the two renames
        assertEquals(List.of("m", "t"), m.targetTables(), "the real table stays on the target between the renames");

        // the first recorded ALTER runs, then the process halts before its checkpoint moves
        p = m.start("run2", List.of("-Djdm.sync.test.halt-ddl=ran"));
        source.execute("rename /* gh-ost */ table " + q + "`_t_gho` to " + q + "`t`");
        m.halted(p, "run2");

        p = m.start("run3", List.of());
        source.execute("INSERT INTO " + q + "t VALUES (5, 'e', 50)");
        m.marker(p, 3);
        m.kill(p); // right after the cut-over

        p = m.start("run4", List.of());
        source.execute("drop /* gh-ost */ table if exists " + q + "`_t_del`",
                "UPDATE " + q + "t SET c = 8 WHERE id = 1");
        m.marker(p, 4);
        m.assertSame(List.of("m", "t"));
        m.stop(p);
    }
}
