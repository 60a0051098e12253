package io.jdm.common.error;

import java.io.IOException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.util.Optional;

/**
 * A TLS handshake that ended on the server's certificate: not issued by a CA in {@code ssl-ca}, or
 * not naming the host connected to. No retry changes a certificate, so the classifier takes it as
 * fatal, and it is told in one line with what to do: Connector/J reports it as a "Communications
 * link failure", which reads like a server that is down. Found in the cause chain: a
 * {@link CertificateException} below an I/O failure (the handshake), from Connector/J's own host
 * check, the JDK's (the binlog connection) or the JDK's CA check.
 */
final class CertificateRefusal {
    private CertificateRefusal() {
    }

    /** The one line for a failure whose cause is a refused server certificate; empty for any other. */
    static Optional<String> oneLine(Throwable t) {
        boolean inHandshake = false;
        for (Throwable c = t; c != null && c.getCause() != c; c = c.getCause()) {
            if (c instanceof CertificateException && inHandshake) {
                return Optional.of(describe(c));
            }
            inHandshake |= c instanceof IOException;
        }
        return Optional.empty();
    }

    /**
     * What the refusal was about, by the checkers' own words (Connector/J's host check, the JDK's
     * RFC 2818 check) and, for the CA, by the path validation failure beneath.
     */
    private static String describe(Throwable refusal) {
        String why = firstLine(refusal.getMessage());
        if (why.startsWith("Server identity verification failed") || why.startsWith("No subject alternative")
                || why.startsWith("No name matching")) {
            return "TLS: the server's certificate does not name the host connected to (" + why + "); connect by a"
                    + " name or address the certificate holds, or set ssl-verify-host: false in that server's"
                    + " security section to check only that ssl-ca issued it";
        }
        Throwable inner = refusal;
        boolean path = false;
        for (Throwable c = refusal; c != null && c.getCause() != c; c = c.getCause()) {
            path |= c instanceof CertPathValidatorException || c instanceof CertPathBuilderException;
            inner = c;
        }
        if (path || why.contains("PKIX path")) {
            return "TLS: the server's certificate was not issued by a CA in ssl-ca (" + firstLine(inner.getMessage())
                    + "); set ssl-ca to the CA that issued it";
        }
        return "TLS: the server's certificate was refused: " + why;
    }

    private static String firstLine(String m) {
        if (m == null) {
            return "no reason given";
        }
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
