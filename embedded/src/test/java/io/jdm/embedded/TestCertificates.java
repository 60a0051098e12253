package io.jdm.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A CA and certificates it signed, made with openssl for tests only and trusted by nothing else:
 * {@code ca.pem}; {@code server.pem} (127.0.0.1, key in PKCS#8); {@code client.pem} (CN=jdm-client,
 * key in PKCS#1) and {@code client-ec.pem} (CN=jdm-client-ec, P-256 key in SEC1 after an EC
 * PARAMETERS block); {@code other-ca.pem}, a CA that signed none of them; {@code wrong-host.pem}
 * (CN and only name {@code wrong.example}, key in PKCS#8), signed by {@code wrong-host-ca.pem}, for
 * a server whose certificate does not name the address the client used. Valid until 2126.
 */
public final class TestCertificates {
    public static final List<String> FILES = List.of("ca.pem", "other-ca.pem", "server.pem", "server.key",
            "client.pem", "client.key", "client-ec.pem", "client-ec.key", "wrong-host-ca.pem", "wrong-host.pem",
            "wrong-host.key");

    private TestCertificates() {
    }

    public static byte[] read(String name) {
        try (InputStream in = TestCertificates.class.getResourceAsStream("tls/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no test certificate file " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Copies every file into {@code dir}; returns {@code dir}. */
    public static Path copyTo(Path dir) throws IOException {
        Files.createDirectories(dir);
        for (String f : FILES) {
            Files.write(dir.resolve(f), read(f));
        }
        return dir;
    }

    /** Options of a MariaDB that speaks TLS with server.pem and checks client certificates against ca.pem. */
    public static List<String> serverArgs(Path dir) {
        return serverArgs(dir, "server");
    }

    /** As {@link #serverArgs(Path)}, the server presenting {@code name}.pem with its key. */
    public static List<String> serverArgs(Path dir, String name) {
        return List.of("--ssl-ca=" + dir.resolve("ca.pem"), "--ssl-cert=" + dir.resolve(name + ".pem"),
                "--ssl-key=" + dir.resolve(name + ".key"));
    }
}
