package io.jdm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.cli.JdmCommandLineTest.Run;
import io.jdm.embedded.EmbeddedMariaDb;
import io.jdm.embedded.ServerProfile;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jdm verify} of a task whose routes merge shards from two sources into one target table:
 * vmc.t1 and vmc.t2 on the first source and vmc.t3 on the second all go to vmc_target.t, read each
 * from its own source; a table that is not merged is compared as before.
 */
class VerifyMergeCommandIT {
    @TempDir
    Path dir;

    @Test
    void shardsOfTwoSourcesAreComparedWithTheirMergedTable() throws Exception {
        SqlServer source = TestServers.shared().source();
        SqlServer target = TestServers.shared().target();
        try (EmbeddedMariaDb second = EmbeddedMariaDb.start("verify-merge-cli", ServerProfile.SOURCE)) {
            source.freshDatabase("vmc");
            second.freshDatabase("vmc");
            target.freshDatabase("vmc_target");
            String ddl = " (id INT PRIMARY KEY, v VARCHAR(20))";
            source.execute("CREATE TABLE vmc.t1" + ddl, "CREATE TABLE vmc.t2" + ddl, "CREATE TABLE vmc.solo" + ddl,
                    "INSERT INTO vmc.t1 VALUES (1, 'a'), (4, 'd')", "INSERT INTO vmc.t2 VALUES (2, 'b'), (5, 'e')",
                    "INSERT INTO vmc.solo VALUES (1, 'solo')");
            second.execute("CREATE TABLE vmc.t3" + ddl, "INSERT INTO vmc.t3 VALUES (3, 'c'), (6, 'f')");
            target.execute("CREATE TABLE vmc_target.t" + ddl, "CREATE TABLE vmc_target.solo" + ddl,
                    "INSERT INTO vmc_target.t VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd'), (5, 'e'), (6, 'f')",
                    "INSERT INTO vmc_target.solo VALUES (1, 'solo')");
            Path task = task(source, second, target);

            Run same = JdmCommandLineTest.run("verify", "--chunk-rows", "2", task.toString());
            assertEquals(0, same.code(), same.out() + same.err());
            assertTrue(same.out().matches("(?s).*vmc_target\\.t <- 3 shards\\s+MATCH\\s+6\\s+6.*"), same.out());
            assertTrue(same.out().matches("(?s).*vmc\\.solo -> vmc_target\\.solo\\s+MATCH.*"), same.out());

            target.execute("UPDATE vmc_target.t SET v = 'x' WHERE id = 6");
            second.execute("INSERT INTO vmc.t3 VALUES (4, 'd')");
            Run diff = JdmCommandLineTest.run("verify", "--json", "--fix-sql", dir.resolve("fix").toString(),
                    task.toString());
            assertEquals(1, diff.code(), diff.out() + diff.err());
            String json = diff.out().replaceAll("\\s+", " ");
            assertTrue(json.contains("\"kind\" : \"CHANGED\", \"key\" : \"id=6\", \"detail\" : \"from shard s2 vmc.t3\""),
                    diff.out());
            assertTrue(json.contains("\"kind\" : \"COLLISION\", \"key\" : \"id=4\", "
                    + "\"detail\" : \"key held by shards s1 vmc.t1 and s2 vmc.t3\""), diff.out());
            assertTrue(json.contains("\"shards\" : [ \"s1 vmc.t1\", \"s1 vmc.t2\", \"s2 vmc.t3\" ]"), diff.out());
            String fix = Files.readString(dir.resolve("fix").resolve("vmc_target.t.fix.sql"));
            assertTrue(fix.contains("REPLACE INTO `vmc_target`.`t` (`id`,`v`) VALUES (6,'f');"), fix);
            assertTrue(fix.contains("-- not repaired: id=4 is held by shards s1 vmc.t1 and s2 vmc.t3"), fix);
        }
    }

    private Path task(SqlServer source, SqlServer second, SqlServer target) throws java.io.IOException {
        Path f = dir.resolve("task.yaml");
        Files.writeString(f, String.join("\n",
                "name: verify-merge",
                "task-mode: all",
                "meta-schema: jdm_meta_vm",
                "target-database: {host: 127.0.0.1, port: " + target.port() + ", user: root, password: \"\"}",
                "block-allow-list: {only: {do-dbs: [\"vmc\"]}}",
                "routes:",
                "  tables: {schema-pattern: vmc, table-pattern: \"t*\", target-schema: vmc_target, target-table: t}",
                "  schema: {schema-pattern: vmc, target-schema: vmc_target}",
                "mydumpers: {global: {threads: 2, dir: \"" + dir.resolve("dump") + "\"}}",
                "mysql-instances:",
                "  - source-id: s1",
                "    block-allow-list: only",
                "    route-rules: [tables, schema]",
                "    from: {host: 127.0.0.1, port: " + source.port() + ", user: root, password: \"\"}",
                "  - source-id: s2",
                "    block-allow-list: only",
                "    route-rules: [tables, schema]",
                "    from: {host: 127.0.0.1, port: " + second.port() + ", user: root, password: \"\"}",
                ""));
        return f;
    }
}
