package io.jdm.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TLS files are resolved against the task file's directory and must exist when the task is loaded. */
class SecurityConfigTest {
    @TempDir
    Path dir;

    @Test
    void resolvesRelativeToTheTaskFile() throws IOException {
        Files.createDirectories(dir.resolve("tls"));
        for (String f : List.of("ca.pem", "client.pem", "client.key")) {
            Files.writeString(dir.resolve("tls").resolve(f), "x");
        }
        TaskConfig t = load(Tasks.inTarget("  security:\n    ssl-ca: tls/ca.pem\n    ssl-cert: tls/client.pem\n"
                + "    ssl-key: tls/client.key\n"));
        SecurityConfig s = t.targetDatabase().security();
        assertEquals(Optional.of(dir.resolve("tls/ca.pem")), s.sslCa());
        assertEquals(Optional.of(dir.resolve("tls/client.pem")), s.sslCert());
        assertEquals(Optional.of(dir.resolve("tls/client.key")), s.sslKey());
        assertEquals(dir.resolve("tls/ca.pem").toString(), t.targetDatabase().toConnectionSpec().sslCa());
    }

    @Test
    void certAndKeyGoTogether() throws IOException {
        Files.writeString(dir.resolve("client.pem"), "x");
        var e = assertThrows(ConfigException.class,
                () -> load(Tasks.inTarget("  security:\n    ssl-cert: client.pem\n")));
        assertEquals(List.of("target-database.security: ssl-cert and ssl-key must be set together"), e.problems());
    }

    private TaskConfig load(String yaml) throws IOException {
        Path file = Files.writeString(dir.resolve("task.yaml"), yaml);
        return new TaskConfigLoader(Map.<String, String>of()::get).load(file);
    }
}
