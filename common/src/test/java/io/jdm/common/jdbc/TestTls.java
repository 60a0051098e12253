package io.jdm.common.jdbc;

import io.jdm.embedded.TestCertificates;

/** {@link Tls} made of the embedded module's test certificates. */
public final class TestTls {
    private TestTls() {
    }

    /** Checks the server against {@code ca} and presents {@code client}.pem with its key. */
    public static Tls tls(String ca, String client) {
        return Tls.of(Pem.certificates(TestCertificates.read(ca)),
                Pem.certificates(TestCertificates.read(client + ".pem")),
                Pem.privateKey(TestCertificates.read(client + ".key")));
    }
}
