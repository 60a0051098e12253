package io.jdm.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.embedded.TestCertificates;
import io.jdm.common.position.Flavor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mysql-instances[].source: <DM source file>}, resolved relative to the task file. */
class SourceFileTest {
    private static final String TASK = """
            name: t1
            task-mode: all
            target-database:
              host: 127.0.0.1
              user: root
            mysql-instances:
              - source: sources/mysql-01.yaml
            """;
    private static final String SOURCE = """
            source-id: mysql-01
            enable-gtid: false
            flavor: mariadb
            server-id: 101
            enable-relay: false
            from:
              host: 10.0.0.5
              port: 3307
              user: dm
              password: ${SRC_PASS}
            """;

    @TempDir
    Path dir;

    @Test
    void readsTheConnectionAndSourceSettingsFromTheFile() throws IOException {
        writeSource(SOURCE);
        TaskConfig t = load(TASK, Map.of("SRC_PASS", "pw"));
        MySqlInstance i = t.mysqlInstances().get(0);
        assertEquals("mysql-01", i.sourceId());
        assertEquals("10.0.0.5", i.from().host());
        assertEquals(3307, i.from().port());
        assertEquals("pw", i.from().password().reveal());
        assertEquals(Optional.of(Flavor.MARIADB), i.flavor());
        assertEquals(OptionalLong.of(101), i.serverId());
        assertEquals(Optional.of(dir.resolve("sources/mysql-01.yaml")), i.sourceFile());
        assertEquals(false, t.syncer(i).enableGtid(), "the source file's enable-gtid wins");
    }

    @Test
    void relativeTlsFilesResolveAgainstTheSourceFile() throws IOException {
        TestCertificates.copyTo(dir.resolve("sources/certs"));
        writeSource(SOURCE + "  security:\n    ssl-ca: certs/ca.pem\n");
        MySqlInstance i = load(TASK, Map.of("SRC_PASS", "pw")).mysqlInstances().get(0);
        assertTrue(i.from().tls().orElseThrow().verifiesServer());
    }

    @Test
    void aMissingFileIsReportedAtTheInstance() {
        assertEquals(List.of("mysql-instances[0].source: cannot read \"sources/mysql-01.yaml\": no such file"),
                problems(TASK, Map.of()));
    }

    @Test
    void problemsInsideTheFileNameTheFile() throws IOException {
        writeSource(SOURCE.replace("port: 3307", "port: 0").replace("flavor: mariadb", "flavor: tidb")
                + "relay-dri: ./relay\n");
        assertEquals(List.of(
                "sources/mysql-01.yaml: from.port: must be 1..65535, got 0",
                "sources/mysql-01.yaml: flavor: must be one of mysql, mariadb, got \"tidb\"",
                "sources/mysql-01.yaml: relay-dri: unknown key"),
                problems(TASK, Map.of("SRC_PASS", "pw")));
    }

    @Test
    void envInsideTheFileIsSubstitutedAndReportedByName() throws IOException {
        writeSource(SOURCE);
        assertEquals(List.of("sources/mysql-01.yaml: from.password: environment variable SRC_PASS is not set"),
                problems(TASK, Map.of()));
    }

    @Test
    void malformedSourceFile() throws IOException {
        writeSource("source-id: a\nfrom:\n  host: [x\n");
        List<String> p = problems(TASK, Map.of());
        assertEquals(1, p.size(), p.toString());
        assertTrue(p.get(0).startsWith("sources/mysql-01.yaml:4:1: malformed YAML: "), p.get(0));
    }

    @Test
    void relayLogSettingsAreOneWarningEach() throws IOException {
        writeSource(SOURCE.replace("enable-relay: false", "enable-relay: true") + "relay-dir: ./relay\nflavor: ''\n"
                .replace("flavor: ''\n", "") + "purge:\n  interval: 3600\n");
        assertEquals(List.of(
                "sources/mysql-01.yaml: enable-relay: jdm reads the binlog directly and keeps no relay log; ignored",
                "sources/mysql-01.yaml: relay-dir: jdm reads the binlog directly and keeps no relay log; ignored",
                "sources/mysql-01.yaml: purge: jdm reads the binlog directly and keeps no relay log; ignored"),
                load(TASK, Map.of("SRC_PASS", "pw")).warnings());
    }

    /** dmctl's get-config writes enable: true; a disabled source runs no task in DM. */
    @Test
    void enableAsDmctlWritesIt() throws IOException {
        writeSource("enable: true\n" + SOURCE);
        List<String> warnings = load(TASK, Map.of("SRC_PASS", "pw")).warnings();
        assertTrue(warnings.contains("sources/mysql-01.yaml: enable: DM's switch for a source; true is the default; "
                + "ignored"), warnings.toString());
        writeSource("enable: false\n" + SOURCE);
        assertEquals(List.of("sources/mysql-01.yaml: enable: false: DM runs no task on a disabled source; set it true "
                + "or leave it out"), problems(TASK, Map.of("SRC_PASS", "pw")));
    }

    @Test
    void taskSourceIdMustAgreeWithTheFile() throws IOException {
        writeSource(SOURCE);
        String task = TASK.replace("  - source: sources/mysql-01.yaml\n",
                "  - source: sources/mysql-01.yaml\n    source-id: mysql-02\n    server-id: 7\n");
        assertEquals(List.of(
                "mysql-instances[0].source-id: \"mysql-02\" differs from the source-id in sources/mysql-01.yaml",
                "mysql-instances[0].server-id: differs from the server-id in sources/mysql-01.yaml"),
                problems(task, Map.of("SRC_PASS", "pw")));
    }

    @Test
    void sourceMustNameAFile() {
        assertEquals(List.of("mysql-instances[0].source: must be a string, got a mapping"),
                problems(TASK.replace("source: sources/mysql-01.yaml", "source: {file: x}"), Map.of()));
        assertEquals(List.of("mysql-instances[0].source: required"),
                problems(TASK.replace("source: sources/mysql-01.yaml", "source: ''"), Map.of()));
    }

    @Test
    void fromAndSourceTogetherAreRefused() throws IOException {
        writeSource(SOURCE);
        String task = TASK + "    from:\n      host: h\n      user: u\n";
        assertEquals(List.of("mysql-instances[0]: has both from and source; keep one"),
                problems(task, Map.of("SRC_PASS", "pw")));
    }

    private void writeSource(String text) throws IOException {
        Files.createDirectories(dir.resolve("sources"));
        Files.writeString(dir.resolve("sources/mysql-01.yaml"), text);
    }

    private TaskConfig load(String task, Map<String, String> env) throws IOException {
        Path file = Files.writeString(dir.resolve("task.yaml"), task);
        return new TaskConfigLoader(env::get).load(file);
    }

    private List<String> problems(String task, Map<String, String> env) {
        return assertThrows(ConfigException.class, () -> load(task, env)).problems();
    }
}
