package io.jdm.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * DM's alert rules as jdm ships them fire, and stay quiet, as their unit tests say, evaluated by
 * Prometheus's own engine ({@code promtool test rules}): a paused task past 20 minutes, a unit that
 * exits with an error, a source whose sync is more than one binlog file behind (with two sources in
 * one process, where DM's match would find several series), a process that cannot be scraped, a
 * shard DDL lock waiting an hour.
 */
class AlertRulesTest {
    @Test
    void everyAlertRuleFiresAsItsTestSays() throws Exception {
        String promtool = null;
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (new File(d, "promtool").canExecute()) {
                promtool = new File(d, "promtool").getPath();
                break;
            }
        }
        assumeTrue(promtool != null, "promtool not installed (apt-get install prometheus): skipped");
        Path dir = Path.of("../conf/prometheus").toAbsolutePath().normalize();
        Process p = new ProcessBuilder(promtool, "test", "rules", "dm_worker.rules.test.yml").directory(dir.toFile())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(true, p.waitFor(60, TimeUnit.SECONDS), out);
        assertEquals(0, p.exitValue(), out);
    }
}
