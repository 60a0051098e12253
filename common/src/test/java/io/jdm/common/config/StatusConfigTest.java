package io.jdm.common.config;

import static io.jdm.common.config.Tasks.MINIMAL;
import static io.jdm.common.config.Tasks.parse;
import static io.jdm.common.config.Tasks.problems;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.embedded.TestCertificates;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code status-token} from the environment and {@code status-token-file} from a file relative to the
 * task file; a token typed into the task file is refused, and no message ever shows a token.
 * {@code status-tls-cert} and {@code status-tls-key} are read and matched at load.
 */
class StatusConfigTest {
    private static final String TOKEN = "0123456789abcdef0123456789abcdef";

    @TempDir
    Path dir;

    @Test
    void noTokenUnlessOneIsConfigured() {
        StatusConfig s = parse(MINIMAL).status();
        assertEquals("127.0.0.1:8261", s.addr());
        assertFalse(s.hasToken());
    }

    @Test
    void tokenFromTheEnvironmentIsMasked() {
        TaskConfig t = parse(MINIMAL + "status-token: \"${JDM_STATUS_TOKEN}\"\n", Map.of("JDM_STATUS_TOKEN", TOKEN));
        assertEquals(TOKEN, t.status().token().reveal());
        assertFalse(t.status().toString().contains(TOKEN), t.status().toString());
        assertFalse(t.toString().contains(TOKEN));
    }

    @Test
    void tokenFileRelativeToTheTaskFileWithoutItsNewline() throws IOException {
        Files.createDirectories(dir.resolve("credentials"));
        Files.writeString(dir.resolve("credentials/status-token"), TOKEN + "\n");
        Path task = Files.writeString(dir.resolve("task.yaml"),
                MINIMAL + "status-token-file: credentials/status-token\n");
        StatusConfig s = new TaskConfigLoader(name -> null).load(task).status();
        assertEquals(TOKEN, s.token().reveal());
    }

    @Test
    void aTokenWrittenInTheTaskFileIsRefusedWithoutShowingIt() {
        for (String written : List.of(TOKEN, "\"${JDM_STATUS_TOKEN:-" + TOKEN + "}\"", "\"x${JDM_STATUS_TOKEN}\"")) {
            List<String> p = problems(MINIMAL + "status-token: " + written + "\n", Map.of("JDM_STATUS_TOKEN", TOKEN));
            assertEquals(List.of("status-token: must be one environment variable, as \"${JDM_STATUS_TOKEN}\", or use "
                    + "status-token-file: a token written in the task file is read by whoever reads the file"), p);
        }
    }

    @Test
    void whatIsWrongWithATokenIsNamedAndTheTokenNeverShown() throws IOException {
        String var = "status-token: \"${T}\"\n";
        assertEquals(List.of("status-token: environment variable T is not set"), problems(MINIMAL + var, Map.of()));
        assertEquals(List.of("status-token: must be at least 16 characters (openssl rand -hex 32 makes one), got 0"),
                problems(MINIMAL + var, Map.of("T", "")));
        assertEquals(List.of("status-token: must be at least 16 characters (openssl rand -hex 32 makes one), got 9"),
                problems(MINIMAL + var, Map.of("T", "hunter2!!")));
        List<String> spaced = problems(MINIMAL + var, Map.of("T", "correct horse battery staple"));
        assertEquals(List.of("status-token: must be printable ASCII without spaces (openssl rand -hex 32 makes one)"),
                spaced);
        assertEquals(List.of("status-token-file: set status-token or status-token-file, not both"),
                problems(MINIMAL + var + "status-token-file: t\n", Map.of("T", TOKEN)));

        Path task = dir.resolve("task.yaml");
        Files.writeString(dir.resolve("short"), "abc\n");
        assertEquals(List.of("status-token-file: the token in \"short\" must be at least 16 characters "
                + "(openssl rand -hex 32 makes one), got 3"), loadProblems(task, "status-token-file: short\n"));
        assertEquals(List.of("status-token-file: no such file \"missing\""),
                loadProblems(task, "status-token-file: missing\n"));
        assertEquals(List.of("status-token-file: must name a file"), loadProblems(task, "status-token-file: \"\"\n"));
    }

    @Test
    void tlsCertificateAndKeyFromFilesRelativeToTheTaskFile() throws IOException {
        TestCertificates.copyTo(dir.resolve("tls"));
        Path task = Files.writeString(dir.resolve("task.yaml"), MINIMAL
                + "status-tls-cert: tls/server.pem\nstatus-tls-key: tls/server.key\n");
        StatusTls tls = new TaskConfigLoader(name -> null).load(task).status().tls().orElseThrow();
        assertEquals(1, tls.chain().size());
        assertTrue(tls.toString().startsWith("StatusTls[") && !tls.toString().contains("modulus"), tls.toString());
        assertTrue(parse(MINIMAL).status().tls().isEmpty());
    }

    @Test
    void whatIsWrongWithTlsIsNamed() throws IOException {
        TestCertificates.copyTo(dir);
        Path task = dir.resolve("task.yaml");
        assertEquals(List.of("status-tls-key: status-tls-cert and status-tls-key must be set together"),
                loadProblems(task, "status-tls-cert: server.pem\n"));
        assertEquals(List.of("status-tls-key: \"client.key\" is not the key of the certificate in \"server.pem\""),
                loadProblems(task, "status-tls-cert: server.pem\nstatus-tls-key: client.key\n"));
        assertEquals(List.of("status-tls-cert: \"server.key\" holds no PEM certificate (-----BEGIN CERTIFICATE-----)",
                "status-tls-key: no such file \"nothing.key\""),
                loadProblems(task, "status-tls-cert: server.key\nstatus-tls-key: nothing.key\n"));
    }

    private List<String> loadProblems(Path task, String lines) throws IOException {
        Files.writeString(task, MINIMAL + lines);
        try {
            new TaskConfigLoader(name -> null).load(task);
            throw new AssertionError("loaded");
        } catch (ConfigException e) {
            assertTrue(e.problems().stream().noneMatch(l -> l.contains("abc")), e.problems().toString());
            return e.problems();
        }
    }
}
