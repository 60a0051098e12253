package io.jdm.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.embedded.TestCertificates;
import io.jdm.common.jdbc.ServerRsaKey;
import io.jdm.common.jdbc.Tls;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code security:} as DM reads it: each PEM item as a file (relative to the YAML file), base64 text
 * or a byte list; read and checked at load, and never shown in a message.
 */
class SecurityConfigTest {
    @TempDir
    Path dir;

    @Test
    void filesResolveRelativeToTheTaskFile() throws IOException {
        TestCertificates.copyTo(dir.resolve("tls"));
        TaskConfig t = load(Tasks.inTarget("  security:\n    ssl-ca: tls/ca.pem\n    ssl-cert: tls/client.pem\n"
                + "    ssl-key: tls/client.key\n"));
        Tls tls = t.targetDatabase().tls().orElseThrow();
        assertTrue(tls.verifiesServer() && tls.hasClientCertificate(), tls.toString());
        assertEquals(tls, t.targetDatabase().toConnectionSpec().tls().orElseThrow());
        assertEquals(List.of(), t.warnings());
    }

    @Test
    void base64AndByteListFormsAsDmWritesThem() throws IOException {
        TaskConfig t = load(Tasks.inTarget("  security:\n    ssl-ca-base64: " + base64("ca.pem") + "\n"
                + "    ssl-cert-bytes: " + byteList("client-ec.pem") + "\n"
                + "    ssl-key-base64: " + base64("client-ec.key") + "\n"));
        Tls tls = t.targetDatabase().tls().orElseThrow();
        assertTrue(tls.verifiesServer() && tls.hasClientCertificate(), tls.toString());
        assertTrue(tls.toString().contains("CN=jdm-client-ec"), tls.toString());
    }

    @Test
    void emptyFormsAsDmctlWritesThemAreNotSet() throws IOException {
        TaskConfig t = load(Tasks.inTarget("  security:\n    ssl-ca: \"\"\n    ssl-cert: \"\"\n    ssl-key: \"\"\n"
                + "    cert-allowed-cn: []\n    ssl-ca-bytes: []\n    ssl-key-bytes: []\n    ssl-cert-bytes: []\n"
                + "    ssl-ca-base64: \"\"\n    ssl-key-base64: \"\"\n    ssl-cert-base64: \"\"\n"));
        assertEquals(Optional.empty(), t.targetDatabase().tls());
        assertEquals(List.of(), t.warnings());
    }

    @Test
    void dmsOrderWhenFormsOverlapAndWarningsForWhatJdmDoesNotDo() throws IOException {
        TestCertificates.copyTo(dir);
        TaskConfig t = load(Tasks.inTarget("  security:\n    ssl-ca: other-ca.pem\n    ssl-ca-base64: "
                + base64("ca.pem") + "\n    ssl-cert: client.pem\n    ssl-key: client.key\n"
                + "    cert-allowed-cn: [tidb]\n"));
        assertTrue(t.targetDatabase().tls().orElseThrow().verifiesServer());
        assertEquals(List.of(
                "target-database.security.ssl-ca: ignored: ssl-ca-base64 is set, and DM takes it first",
                "target-database.security.cert-allowed-cn: DM also checks that the server's certificate has one of "
                        + "these Common Names; jdm checks the certificate against ssl-ca and the host name only; "
                        + "ignored"),
                t.warnings());
        TaskConfig unchecked = load(Tasks.inTarget("  security:\n    ssl-cert: client.pem\n    ssl-key: client.key\n"));
        assertFalse(unchecked.targetDatabase().tls().orElseThrow().verifiesServer());
        assertEquals(List.of("target-database.security.ssl-ca: not set: the connection is encrypted but the server's "
                + "certificate is not checked, as in DM; set ssl-ca to check it"), unchecked.warnings());
    }

    @Test
    void theHostNameIsCheckedUnlessSslVerifyHostIsFalse() throws IOException {
        TestCertificates.copyTo(dir);
        TaskConfig checked = load(Tasks.inTarget("  security:\n    ssl-ca: ca.pem\n"));
        assertTrue(checked.targetDatabase().tls().orElseThrow().verifiesHost());
        assertEquals(List.of(), checked.warnings());
        TaskConfig relaxed = load(Tasks.inTarget("  security:\n    ssl-ca: ca.pem\n    ssl-verify-host: false\n"));
        Tls tls = relaxed.targetDatabase().tls().orElseThrow();
        assertTrue(tls.verifiesServer() && !tls.verifiesHost(), tls.toString());
        assertTrue(relaxed.targetDatabase().toConnectionSpec().jdbcUrl().contains("&sslMode=VERIFY_CA"));
        assertEquals(List.of("target-database.security.ssl-verify-host: false: the server's certificate is checked "
                + "against ssl-ca but not for the host name, so any server with a certificate from that CA is taken "
                + "for this one"), relaxed.warnings());
        TaskConfig noCa = load(Tasks.inTarget("  security:\n    ssl-cert: client.pem\n    ssl-key: client.key\n"
                + "    ssl-verify-host: false\n"));
        assertFalse(noCa.targetDatabase().tls().orElseThrow().verifiesServer());
        assertTrue(noCa.warnings().contains("target-database.security.ssl-verify-host: false has no effect without "
                + "ssl-ca: no part of the server's certificate is checked"), noCa.warnings().toString());
        assertEquals(List.of("target-database.security.ssl-verify-host: must be true or false, got \"maybe\""),
                problems(Tasks.inTarget("  security:\n    ssl-ca: ca.pem\n    ssl-verify-host: maybe\n")));
    }

    @Test
    void whatIsWrongIsNamedAndTheContentIsNeverShown() throws IOException {
        TestCertificates.copyTo(dir);
        String key = base64("client.key");
        assertEquals(List.of("target-database.security.ssl-cert-base64: is not base64 text"),
                problems(Tasks.inTarget("  security:\n    ssl-cert-base64: \"not base64!\"\n    ssl-key-base64: "
                        + key + "\n")));
        List<String> p = problems(Tasks.inTarget("  security:\n    ssl-ca: client.key\n"
                + "    ssl-cert: client.pem\n    ssl-key-base64: " + key + "\n"));
        assertEquals(List.of("target-database.security.ssl-ca: \"client.key\" holds no PEM certificate "
                + "(-----BEGIN CERTIFICATE-----)"), p);
        List<String> mismatch = problems(Tasks.inTarget("  security:\n    ssl-cert: server.pem\n"
                + "    ssl-key-base64: " + key + "\n"));
        assertEquals(List.of("target-database.security.ssl-key-base64: is not the key of the client certificate "
                + "in ssl-cert"), mismatch);
        List<String> bytes = problems(Tasks.inTarget("  security:\n    ssl-ca-bytes: [45, 300]\n"));
        assertEquals(List.of("target-database.security.ssl-ca-bytes[1]: must be a byte value 0..255"), bytes);
        assertTrue(String.join("\n", p).indexOf(key.substring(0, 20)) < 0);
    }

    @Test
    void theServersRsaKeyIsAskedForUnlessRefusedOrPinnedInAFile() throws Exception {
        TaskConfig plain = load(Tasks.inTarget(""));
        assertEquals(ServerRsaKey.RETRIEVED, plain.targetDatabase().rsaKey());
        TaskConfig refused = load(Tasks.inTarget("  security:\n    allow-public-key-retrieval: false\n"));
        assertEquals(ServerRsaKey.REFUSED, refused.targetDatabase().toConnectionSpec().rsaKey());
        assertEquals(Optional.empty(), refused.targetDatabase().tls());
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        PublicKey key = g.generateKeyPair().getPublic();
        Files.writeString(dir.resolve("server-key.pem"), "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder().encodeToString(key.getEncoded()) + "\n-----END PUBLIC KEY-----\n");
        TaskConfig pinned = load(Tasks.inTarget("  security:\n    server-rsa-public-key-file: server-key.pem\n"
                + "    allow-public-key-retrieval: true\n"));
        ServerRsaKey k = pinned.targetDatabase().toConnectionSpec().rsaKey();
        assertEquals(key, k.key().orElseThrow());
        assertEquals(dir.resolve("server-key.pem").toAbsolutePath(), k.file().orElseThrow());
        assertFalse(k.retrieved());
        assertEquals(List.of("target-database.security.allow-public-key-retrieval: not used: "
                + "server-rsa-public-key-file pins the key, which is then never asked of the server"), pinned.warnings());
        TestCertificates.copyTo(dir);
        assertEquals(List.of("target-database.security.server-rsa-public-key-file: \"ca.pem\" holds no PEM public key "
                + "(-----BEGIN PUBLIC KEY-----)"),
                problems(Tasks.inTarget("  security:\n    server-rsa-public-key-file: ca.pem\n")));
        TaskConfig overTls = load(Tasks.inTarget("  security:\n    ssl-ca: ca.pem\n"
                + "    allow-public-key-retrieval: false\n"));
        assertEquals(List.of("target-database.security.allow-public-key-retrieval: not used: over TLS the password "
                + "goes inside the TLS session"), overTls.warnings());
    }

    @Test
    void certAndKeyGoTogether() throws IOException {
        TestCertificates.copyTo(dir);
        var e = assertThrows(ConfigException.class,
                () -> load(Tasks.inTarget("  security:\n    ssl-cert: client.pem\n")));
        assertEquals(List.of("target-database.security: ssl-cert and ssl-key must be set together"), e.problems());
    }

    private static String base64(String name) {
        return Base64.getEncoder().encodeToString(TestCertificates.read(name));
    }

    private static String byteList(String name) {
        byte[] b = TestCertificates.read(name);
        return IntStream.range(0, b.length).mapToObj(i -> Integer.toString(b[i] & 0xff))
                .collect(Collectors.joining(", ", "[", "]"));
    }

    private List<String> problems(String yaml) throws IOException {
        Path file = Files.writeString(dir.resolve("task.yaml"), yaml);
        return assertThrows(ConfigException.class,
                () -> new TaskConfigLoader(Map.<String, String>of()::get).load(file)).problems();
    }

    private TaskConfig load(String yaml) throws IOException {
        Path file = Files.writeString(dir.resolve("task.yaml"), yaml);
        return new TaskConfigLoader(Map.<String, String>of()::get).load(file);
    }
}
