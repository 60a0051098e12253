package io.jdm.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jdm.cli.run.DmMonitoring.Selector;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The alert rules and the dashboard in {@code conf/} are well formed: {@code promtool check rules}
 * accepts the rules (skipped, saying so, where promtool is not installed: Debian package
 * {@code prometheus}), every rule and panel queries a series, and the PromQL reading that
 * {@code MetricsEndpointIT} checks the names with finds metrics, not functions, labels or ranges.
 * Whether jdm exports those series is {@code MetricsEndpointIT}'s to show.
 */
class DmMonitoringTest {

    @Test
    void promtoolAcceptsTheRules() throws Exception {
        String promtool = onPath("promtool");
        assumeTrue(promtool != null, "promtool not installed (apt-get install prometheus): skipped");
        Process p = new ProcessBuilder(promtool, "check", "rules", DmMonitoring.file(DmMonitoring.RULES).toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "promtool did not finish");
        assertEquals(0, p.exitValue(), "promtool check rules: " + out);
        assertTrue(out.contains("SUCCESS: " + DmMonitoring.ruleExpressions().size() + " rules found"), out);
    }

    @Test
    void theTokenizerFindsMetricsAndTheLabelsTheyMatch() {
        assertEquals(List.of(new Selector("dm_syncer_replication_lag_bucket", Set.of("source_id", "task"))),
                DmMonitoring.selectors("histogram_quantile(0.90, sum(rate(dm_syncer_replication_lag_bucket{"
                        + "source_id=~\"$source\",task=~\"$task\"}[$interval])) by (le,task,source_id))"));
        assertEquals(List.of(new Selector("a", Set.of("node")), new Selector("b", Set.of("node", "x")),
                        new Selector("c", Set.of())),
                DmMonitoring.selectors("(a{node=\"master\"} - ON(instance, task, job) group_right "
                        + "b{node = \"s,}\\\"\", x!~'y'} > 1) and on(instance) (c == 2)"));
        assertEquals(List.of(new Selector("x", Set.of("r")), new Selector("x", Set.of("r"))),
                DmMonitoring.selectors("changes(x{r=\"false\"}[1m]) > 0 or on(source_id, task) "
                        + "increase(x{r=\"true\"}[2m]) > 3"));
        assertEquals(List.of(new Selector("space", Set.of("type"))),
                DmMonitoring.selectors("space{type=\"available\"} < 10*1024*1024*1024 offset 5m"));
        assertEquals(List.of(new Selector("m", Set.of())), DmMonitoring.selectors("count_values(\"state\", m)"));
        assertEquals(List.of(new Selector("q", Set.of("t"))),
                DmMonitoring.selectors("sum by (task,source_id) (rate(q{t=~\"$t\"}[1m]))"));
        assertEquals(List.of(new Selector("dm_worker_task_state", Set.of("task"))),
                DmMonitoring.selectors("dm_worker_task_state{task=~\"$task\"}"));
    }

    @Test
    void everyRuleAndPanelQueriesASeries() throws Exception {
        List<String> exprs = new java.util.ArrayList<>(DmMonitoring.ruleExpressions());
        exprs.addAll(DmMonitoring.dashboardExpressions());
        assertTrue(exprs.size() > 40, "expressions read: " + exprs.size());
        for (String e : exprs) {
            assertFalse(DmMonitoring.selectors(e).isEmpty(), "queries no series: " + e);
        }
        JsonNode d = new ObjectMapper().readTree(DmMonitoring.file(DmMonitoring.DASHBOARD).toFile());
        String datasource = "${" + d.path("__inputs").get(0).path("name").asText() + "}";
        for (JsonNode p : d.path("panels")) {
            if (!"row".equals(p.path("type").asText())) {
                assertFalse(p.path("targets").isEmpty(), "panel without a query: " + p.path("title"));
                assertEquals(datasource, p.path("datasource").asText(), "datasource of " + p.path("title"));
            }
        }
    }

    static String onPath(String name) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            File f = new File(d, name);
            if (f.canExecute()) {
                return f.getPath();
            }
        }
        return null;
    }
}
