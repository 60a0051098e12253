package io.jdm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jdm bench} with a run sweep, as a user starts it: every jdm sample a whole {@code jdm run}
 * process started through a launcher, the copy checked after each, the peers (mydumper then
 * myloader) beside it where they are installed.
 */
class BenchRunSweepIT {
    @TempDir
    Path tmp;

    @Test
    void theRunSweepTimesWholeJdmRunProcessesAndThePeersInARow() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/time")), "GNU time (/usr/bin/time) is not installed");
        ServerPair pair = TestServers.shared();
        // the launcher: this test's class path in a JVM, as ./jdm starts the jar
        Path launcher = tmp.resolve("jdm");
        Files.writeString(launcher, "#!/bin/sh\nexec '" + Path.of(System.getProperty("java.home"), "bin", "java")
                + "' -cp '" + System.getProperty("java.class.path") + "' " + Jdm.class.getName() + " \"$@\"\n");
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path bench = tmp.resolve("bench-run.yaml");
        Files.writeString(bench, String.join("\n",
                "name: it-run",
                "dataset: {tables: 2, rows-per-table: 3000, database: benchrunsweepit}",
                "source: " + server(pair.source()),
                "target: " + server(pair.target()),
                "warm-up-runs: 0",
                "repetitions: 1",
                "sweeps:",
                "  run: {threads: [2], rows: [1000], statement-size: [100000], pool-size: [2]}",
                "output: report", ""));
        Path out = tmp.resolve("bench.out");
        Process p = JdmChild.start(out, List.of(), Map.of("JDM_LAUNCHER", launcher.toString()), "bench",
                bench.toString());
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "bench finished");
        String console = Files.readString(out, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), console);

        List<String> samples = Files.readAllLines(tmp.resolve("report").resolve("samples.csv"));
        String header = samples.get(0);
        List<String> runs = samples.stream().filter(l -> l.startsWith("run,")).toList();
        String jdm = runs.stream().filter(l -> l.startsWith("run,jdm,")).findFirst()
                .orElseThrow(() -> new AssertionError("no jdm run sample\n" + String.join("\n", samples) + "\n" + console));
        assertEquals(6000, Double.parseDouble(column(header, jdm, "rows")), "every row of the dataset, copied and checked");
        assertTrue(Double.parseDouble(column(header, jdm, "rss_mb")) > 0, "measured as a process: " + jdm);
        boolean peers = Files.isExecutable(Path.of("/usr/bin/mydumper")) && Files.isExecutable(Path.of("/usr/bin/myloader"));
        assertEquals(peers ? 2 : 1, runs.size(), String.join("\n", samples));
        String md = Files.readString(tmp.resolve("report").resolve("report.md"));
        assertTrue(md.contains("## run"), md);
    }

    private static String column(String header, String line, String name) {
        List<String> names = List.of(header.split(","));
        assertTrue(names.contains(name), header);
        return line.split(",", -1)[names.indexOf(name)];
    }

    private static String server(SqlServer s) {
        return "{host: \"" + s.host() + "\", port: " + s.port() + ", user: \"" + s.user() + "\", password: \""
                + s.password() + "\"}";
    }
}
