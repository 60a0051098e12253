package io.jdm.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jdm.cli.TestTasks;
import io.jdm.common.config.TaskConfigLoader;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.position.Flavor;
import io.jdm.embedded.ServerFlavor;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import io.jdm.sync.SyncUnit;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A MySQL 8.0 source that hides generated invisible primary keys from SHOW CREATE TABLE and
 * information_schema ({@code show_gipk_in_create_table_and_information_schema=OFF}) while its rows
 * and binlog rows carry {@code my_row_id}: the task's dump, load and sync read definitions with the
 * key shown, and the target ends with every row, key included ({@code -Djdm.it.servers=mysql8}).
 */
class HiddenGipkIT {
    private static final String DB = "hidden_gipk";

    @TempDir
    Path dir;

    @Test
    void aHiddenGeneratedKeyIsDumpedLoadedAndSyncedWithTheRows() throws Exception {
        assumeTrue(TestServers.sourceFlavor() == ServerFlavor.MYSQL8, "generated invisible primary keys are MySQL 8.0.30+'s");
        SqlServer source = TestServers.shared().source();
        SqlServer target = TestServers.shared().target();
        source.freshDatabase(DB);
        target.execute("DROP DATABASE IF EXISTS " + DB, "DROP DATABASE IF EXISTS jdm_gipk");
        try (Connection c = source.connect(); Statement st = c.createStatement()) {
            st.execute("SET SESSION sql_generate_invisible_primary_key = ON");
            st.execute("CREATE TABLE " + DB + ".g (v VARCHAR(20))");
            st.execute("INSERT INTO " + DB + ".g (v) VALUES ('dumped one'), ('dumped two')");
        }
        source.execute("SET GLOBAL show_gipk_in_create_table_and_information_schema = OFF");
        try {
            TaskRunner runner = new TaskRunner(new TaskConfigLoader().load(
                    TestTasks.allMode(dir, "hidden-gipk", "jdm_gipk", source, target, DB)),
                    TaskRunner.Stages.FROM_TASK_MODE);
            BackgroundTask run = BackgroundTask.start(runner, "hidden-gipk");
            try {
                SyncUnit sync = run.awaitSync(Duration.ofMinutes(2));
                assertTrue(sync != null, "sync never started: " + run.failure());
                try (Connection c = source.connect(); Statement st = c.createStatement()) {
                    st.execute("SET SESSION sql_generate_invisible_primary_key = ON");
                    st.execute("INSERT INTO " + DB + ".g (v) VALUES ('synced')");
                    st.execute("UPDATE " + DB + ".g SET v = 'updated' WHERE v = 'dumped one'");
                    st.execute("CREATE TABLE " + DB + ".h (w INT)");
                    st.execute("INSERT INTO " + DB + ".h (w) VALUES (7), (8)");
                }
                BinlogPosition end;
                try (Connection c = DataSources.connect(ConnectionSpec.of(source.host(), source.port(), "root", ""))) {
                    end = Flavor.detect(c).currentPosition(c);
                }
                assertTrue(sync.awaitCaughtUp(end, Duration.ofMinutes(1)), "not caught up: " + sync.failure());
            } finally {
                run.stop(Duration.ofSeconds(60));
            }
        } finally {
            source.execute("SET GLOBAL show_gipk_in_create_table_and_information_schema = ON");
        }
        for (String t : List.of("g", "h")) {
            String rows = "SELECT my_row_id, HEX(" + (t.equals("g") ? "v" : "w") + ") FROM " + DB + "." + t
                    + " ORDER BY my_row_id";
            assertEquals(source.rows(rows), target.rows(rows), t);
        }
        assertEquals(3, target.rows("SELECT my_row_id FROM " + DB + ".g").size());
    }
}
