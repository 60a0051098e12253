package io.jdm.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DM's {@code shadow-table-rules} and {@code trash-table-rules} in a task file name a migration's
 * tables in place of gh-ost's and pt-osc's defaults: a {@code jdm run} keeps the shadow and trash
 * tables off the target and applies the shadow table's ALTER to the real table at the swap, while a
 * table with gh-ost's default ghost name is replicated as any other.
 */
class OnlineDdlRulesIT {
    @TempDir
    Path dir;

    private final SqlServer source = TestServers.shared().source();
    private final SqlServer target = TestServers.shared().target();

    @Test
    void customShadowAndTrashRulesNameTheMigrationsTables() throws Exception {
        try (OnlineDdlTask m = new OnlineDdlTask(dir, "onlineddl_rules", "onlineddl-rules",
                "shadow-table-rules: [\"^(.+)_shadow$\"]\ntrash-table-rules: [\"^(.+)_trash$\"]\n")) {
            run(m);
        }
    }

    private void run(OnlineDdlTask m) throws Exception {
        String q = m.q;
        Process p = m.start("run1", List.of());
        m.marker(p, 1);
        source.execute("create table " + q + "`t_shadow` like " + q + "`t`",
                "alter table " + q + "`t_shadow` add column c int not null default 7",
                "insert ignore into " + q + "`t_shadow` (id, v) select id, v from " + q + "`t`",
                // gh-ost's default names are ordinary tables under these rules
                "create table " + q + "`_t_gho` (id int primary key, w varchar(10))",
                "insert into " + q + "`_t_gho` values (1, 'kept')",
                "rename table " + q + "`t` to " + q + "`t_trash`, " + q + "`t_shadow` to " + q + "`t`",
                "drop table " + q + "`t_trash`", "INSERT INTO " + q + "t VALUES (5, 'e', 50)");
        m.marker(p, 2);
        m.assertSame(List.of("_t_gho", "m", "t"));
        assertEquals(source.hexRows(m.db, "_t_gho"), target.hexRows(m.db, "_t_gho"));
        m.stop(p);
    }
}
