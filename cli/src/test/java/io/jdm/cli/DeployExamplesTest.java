package io.jdm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.jdm.common.config.MySqlInstance;
import io.jdm.common.config.TaskConfig;
import io.jdm.common.config.TaskConfigLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The deployment examples in docs/deploy parse: the task files load as jdm loads them (with the
 * status-token from a systemd credential and from a Kubernetes Secret), the jdm
 * command lines in the systemd unit and the Deployments are ones jdm accepts, the probes and the
 * scrape configuration point at the endpoints jdm serves.
 */
class DeployExamplesTest {
    private static final String TOKEN = "0af3c9d2e1b4a5968778695a4b3c2d1e";
    private static final Map<String, String> ENV = Map.of("JDM_TARGET_HOST", "tidb", "JDM_TARGET_PASSWORD", "tp",
            "JDM_S1_HOST", "m1", "JDM_S1_PASSWORD", "p1", "JDM_S2_HOST", "m2", "JDM_S2_PASSWORD", "p2",
            "JDM_STATUS_TOKEN", TOKEN);
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @TempDir
    Path dir;

    @Test
    void theTaskFileLoadsWithEverySourceAndItsSecretsFromTheEnvironment() throws Exception {
        Map<String, String> env = new LinkedHashMap<>(ENV);
        env.put("CREDENTIALS_DIRECTORY", dir.toString()); // as systemd sets it for LoadCredential=
        Files.writeString(dir.resolve("status-token"), TOKEN + "\n");
        TaskConfig task = new TaskConfigLoader(env::get).load(deploy().resolve("task.yaml"));
        assertTwoSources(task);
        assertEquals("0.0.0.0:8261", task.statusAddr());
        assertEquals(TOKEN, task.status().token().reveal());
        env.put("JDM_STATUS_ADDR", "0.0.0.0:8262");
        assertEquals("0.0.0.0:8262", new TaskConfigLoader(env::get).load(deploy().resolve("task.yaml")).statusAddr());
    }

    @Test
    void theSystemdUnitRunsTheSourceItIsInstantiatedFor() throws Exception {
        Map<String, List<String>> sections = new LinkedHashMap<>();
        List<String> current = null;
        for (String line : Files.readAllLines(deploy().resolve("jdm@.service"))) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            if (l.startsWith("[") && l.endsWith("]")) {
                current = sections.computeIfAbsent(l.substring(1, l.length() - 1), k -> new ArrayList<>());
            } else {
                assertTrue(current != null && l.matches("[A-Za-z]+=.+"), "not a systemd key=value: " + line);
                current.add(l);
            }
        }
        assertEquals(List.of("Unit", "Service", "Install"), List.copyOf(sections.keySet()));
        assertTrue(sections.get("Service").contains("LoadCredential=status-token:/etc/jdm/status-token"),
                sections.toString());
        String exec = sections.get("Service").stream().filter(l -> l.startsWith("ExecStart=")).findFirst()
                .orElseThrow();
        List<String> words = List.of(exec.substring("ExecStart=".length()).replace("%i", "s1").split(" "));
        assertJdmCommandLine(words.subList(words.indexOf("/opt/jdm/jdm.jar") + 1, words.size()), "s1");
    }

    @Test
    void theDeploymentsRunOneSourceEachWithProbesOnStatus() throws Exception {
        List<JsonNode> docs = YAML.readValues(YAML.getFactory().createParser(deploy().resolve("kubernetes.yaml")
                .toFile()), JsonNode.class).readAll();
        Path task = dir.resolve("task.yaml");
        List<String> sourceIds = new ArrayList<>();
        for (JsonNode d : docs) {
            switch (d.path("kind").asText()) {
                case "ConfigMap" -> Files.writeString(task, d.path("data").path("task.yaml").asText());
                case "Secret" -> assertTrue(d.path("stringData").has("JDM_STATUS_TOKEN"), d.toString());
                case "Deployment" -> {
                    assertEquals(1, d.path("spec").path("replicas").asInt());
                    JsonNode pod = d.path("spec").path("template");
                    String id = pod.path("metadata").path("labels").path("jdm/source-id").asText();
                    JsonNode c = pod.path("spec").path("containers").get(0);
                    List<String> args = new ArrayList<>();
                    c.path("command").forEach(a -> args.add(a.asText()));
                    assertJdmCommandLine(args.subList(args.indexOf("/opt/jdm/jdm.jar") + 1, args.size()), id);
                    for (String probe : List.of("readinessProbe", "livenessProbe")) {
                        assertEquals("/status", c.path(probe).path("httpGet").path("path").asText(), probe);
                        assertEquals("status", c.path(probe).path("httpGet").path("port").asText(), probe);
                    }
                    assertEquals(8261, c.path("ports").get(0).path("containerPort").asInt());
                    sourceIds.add(id);
                }
                default -> {
                }
            }
        }
        assertEquals(List.of("s1", "s2"), sourceIds);
        TaskConfig t = new TaskConfigLoader(ENV::get).load(task);
        assertTwoSources(t);
        assertEquals("0.0.0.0:8261", t.statusAddr());
        assertEquals(TOKEN, t.status().token().reveal());
    }

    @Test
    void prometheusScrapesMetrics() throws Exception {
        JsonNode p = YAML.readTree(deploy().resolve("prometheus.yml").toFile());
        assertEquals(2, p.path("scrape_configs").size());
        p.path("scrape_configs").forEach(j -> assertEquals("/metrics", j.path("metrics_path").asText()));
    }

    private static void assertTwoSources(TaskConfig task) {
        assertEquals(List.of("s1", "s2"), task.mysqlInstances().stream().map(MySqlInstance::sourceId).toList());
        assertEquals("p2", task.instance("s2").from().password().reveal());
        assertEquals("tp", task.targetDatabase().password().reveal());
    }

    /** {@code args} is a {@code jdm run TASK --source-id ID} command line jdm's parser accepts. */
    private static void assertJdmCommandLine(List<String> args, String sourceId) {
        CommandLine.ParseResult r = Jdm.commandLine(args.toArray(String[]::new)).parseArgs(args.toArray(String[]::new));
        CommandLine.ParseResult run = r.subcommand();
        assertEquals("run", run.commandSpec().name(), args.toString());
        assertEquals(List.of(sourceId), run.matchedOptionValue("--source-id", List.<String>of()), args.toString());
    }

    /** docs/deploy at the repository root, found from wherever the build runs. */
    private static Path deploy() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("docs/deploy"))) {
                return p.resolve("docs/deploy");
            }
        }
        throw new IllegalStateException("docs/deploy not found above the working directory");
    }
}
