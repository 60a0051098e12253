package io.jdm.common.config;

import io.jdm.common.jdbc.Pem;
import io.jdm.common.jdbc.ServerRsaKey;
import io.jdm.common.jdbc.Tls;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A connection's {@code security:}, read DM's way (dm/config/security). Each of the CA, the client
 * certificate and its key is PEM given in one of three forms: a file ({@code ssl-ca}), base64 text
 * ({@code ssl-ca-base64}) or the bytes themselves ({@code ssl-ca-bytes}, a list of numbers, as DM's
 * YAML writes a byte array). Where more than one form is set DM takes the bytes, then the base64,
 * then the file, and so does jdm, with a warning. Files are read and every item is checked here, at
 * load; what was read is never shown in a message.
 *
 * <p>With {@code ssl-ca} the server's certificate must also name the host jdm connects to, as DM's
 * Go driver requires. DM's {@code security:} has no key to turn that off; {@code ssl-verify-host:
 * false} is jdm's own, for a server whose certificate names only a host name the task cannot use
 * (an address behind a proxy or a tunnel). It keeps the CA check and says so with a warning.
 *
 * <p>Without TLS a sha256_password login, and a caching_sha2_password one the server has no cached
 * hash for, sends the password encrypted with the server's RSA public key. DM's Go driver asks the
 * server for it; so does jdm unless {@code allow-public-key-retrieval: false} refuses, or {@code
 * server-rsa-public-key-file} pins the key (Connector/J's {@code allowPublicKeyRetrieval} and
 * {@code serverRSAPublicKeyFile}; neither is a key of DM's).
 */
final class SecurityReader {
    private static final String CN_IGNORED = "DM also checks that the server's certificate has one of these "
            + "Common Names; jdm checks the certificate against ssl-ca and the host name only; ignored";
    private static final String HOST_UNCHECKED = "false: the server's certificate is checked against ssl-ca but"
            + " not for the host name, so any server with a certificate from that CA is taken for this one";
    private static final String HOST_WITHOUT_CA = "false has no effect without ssl-ca: no part of the server's"
            + " certificate is checked";
    private static final String UNCHECKED_SERVER = "not set: the connection is encrypted but the server's "
            + "certificate is not checked, as in DM; set ssl-ca to check it";

    private static final String KEY_FILE = "server-rsa-public-key-file";
    private static final String RETRIEVAL = "allow-public-key-retrieval";
    private static final String KEY_UNUSED = "not used: over TLS the password goes inside the TLS session";
    private static final String RETRIEVAL_UNUSED = "not used: server-rsa-public-key-file pins the key, which is "
            + "then never asked of the server";

    private final Section s;

    private SecurityReader(Section s) {
        this.s = s;
    }

    /**
     * @param tls TLS for the connection; empty when none is asked for, or when something is wrong (then reported)
     * @param rsaKey where the server's RSA key comes from without TLS
     */
    record Security(Optional<Tls> tls, ServerRsaKey rsaKey) {
        static final Security NONE = new Security(Optional.empty(), ServerRsaKey.RETRIEVED);
    }

    static Security read(Section s) {
        SecurityReader r = new SecurityReader(s);
        ServerRsaKey key = r.rsaKey();
        Optional<Tls> tls = r.read();
        if (tls.isPresent()) {
            for (String k : List.of(KEY_FILE, RETRIEVAL)) {
                if (s.has(k)) {
                    s.warning(k, KEY_UNUSED);
                }
            }
        }
        return new Security(tls, key);
    }

    /** The pinned key, read and checked now; else whether the server may be asked for it. */
    private ServerRsaKey rsaKey() {
        boolean retrieve = s.bool(RETRIEVAL, true);
        Optional<String> file = s.optionalText(KEY_FILE);
        if (file.isEmpty()) {
            return retrieve ? ServerRsaKey.RETRIEVED : ServerRsaKey.REFUSED;
        }
        if (s.has(RETRIEVAL) && retrieve) {
            s.warning(RETRIEVAL, RETRIEVAL_UNUSED);
        }
        Optional<Item> pem = readFile(KEY_FILE, file.get());
        if (pem.isEmpty()) {
            return ServerRsaKey.REFUSED;
        }
        try {
            return ServerRsaKey.pinned(s.ctx().baseDir().resolve(file.get()), pem.get().pem());
        } catch (IllegalArgumentException e) {
            s.problem(KEY_FILE, s.shown(KEY_FILE) + " " + e.getMessage());
            return ServerRsaKey.REFUSED;
        }
    }

    /** @param file whether {@code key} names a file, whose name (unlike the other forms) may be shown */
    private record Item(String key, byte[] pem, boolean file) {
    }

    private Optional<Tls> read() {
        int problems = s.ctx().problems().size();
        Optional<Item> ca = item("ssl-ca");
        Optional<Item> cert = item("ssl-cert");
        Optional<Item> key = item("ssl-key");
        if (!s.texts("cert-allowed-cn").isEmpty()) {
            s.warning("cert-allowed-cn", CN_IGNORED);
        }
        boolean verifyHost = s.bool("ssl-verify-host", true);
        s.finish();
        if (s.ctx().problems().size() > problems) {
            return Optional.empty(); // an item that could not be read says so; checking the rest would only echo it
        }
        if (cert.isPresent() != key.isPresent()) {
            s.problem("ssl-cert and ssl-key must be set together");
            return Optional.empty();
        }
        if (ca.isEmpty() && cert.isEmpty()) {
            return Optional.empty();
        }
        Optional<List<X509Certificate>> roots = ca.isEmpty() ? Optional.of(List.of())
                : parse(ca.get(), Pem::certificates);
        Optional<List<X509Certificate>> chain = cert.isEmpty() ? Optional.of(List.of())
                : parse(cert.get(), Pem::certificates);
        Optional<PrivateKey> privateKey = key.flatMap(k -> parse(k, Pem::privateKey));
        if (roots.isEmpty() || chain.isEmpty() || key.isPresent() && privateKey.isEmpty()) {
            return Optional.empty();
        }
        if (ca.isEmpty()) {
            s.warning("ssl-ca", UNCHECKED_SERVER);
        }
        if (!verifyHost) {
            s.warning("ssl-verify-host", ca.isEmpty() ? HOST_WITHOUT_CA : HOST_UNCHECKED);
        }
        try {
            Tls tls = Tls.of(roots.get(), chain.get(), privateKey.orElse(null));
            return Optional.of(verifyHost ? tls : tls.withoutHostCheck());
        } catch (IllegalArgumentException e) {
            s.problem(key.map(Item::key).orElse("ssl-key"), e.getMessage() + " in " + cert.get().key());
            return Optional.empty();
        }
    }

    private <T> Optional<T> parse(Item item, Function<byte[], T> parser) {
        try {
            return Optional.of(parser.apply(item.pem()));
        } catch (IllegalArgumentException e) {
            s.problem(item.key(), (item.file() ? s.shown(item.key()) + " " : "") + e.getMessage());
            return Optional.empty();
        }
    }

    /** One of ssl-ca, ssl-cert, ssl-key in whichever form wins, as DM picks it. */
    private Optional<Item> item(String name) {
        List<Item> given = new ArrayList<>();
        bytes(name + "-bytes").ifPresent(b -> given.add(new Item(name + "-bytes", b, false)));
        base64(name + "-base64").ifPresent(b -> given.add(new Item(name + "-base64", b, false)));
        Optional<String> file = s.optionalText(name);
        if (file.isPresent()) {
            given.add(new Item(name, null, true));
        }
        if (given.isEmpty()) {
            return Optional.empty();
        }
        Item first = given.get(0);
        for (Item ignored : given.subList(1, given.size())) {
            s.warning(ignored.key(), "ignored: " + first.key() + " is set, and DM takes it first");
        }
        return first.pem() != null ? Optional.of(first) : readFile(name, file.get());
    }

    /** A file named relative to the YAML file that names it; it must exist now, not at first connect. */
    private Optional<Item> readFile(String key, String name) {
        Path p = s.ctx().baseDir().resolve(name);
        try {
            return Optional.of(new Item(key, Files.readAllBytes(p), true));
        } catch (NoSuchFileException e) {
            s.problem(key, "no such file " + s.shown(key));
        } catch (IOException e) {
            s.problem(key, "cannot read " + s.shown(key) + ": " + e.getClass().getSimpleName());
        }
        return Optional.empty();
    }

    /** Go's StdEncoding, which skips line breaks; blank is not set. */
    private Optional<byte[]> base64(String key) {
        Optional<String> text = s.optionalText(key);
        try {
            return text.map(t -> Base64.getDecoder().decode(t.replaceAll("[\\r\\n]", "")));
        } catch (IllegalArgumentException e) {
            s.problem(key, "is not base64 text");
            return Optional.empty();
        }
    }

    /** DM's []byte as YAML writes it: a list of numbers 0..255; an empty list is not set. */
    private Optional<byte[]> bytes(String key) {
        List<String> values = s.texts(key);
        byte[] out = new byte[values.size()];
        for (int i = 0; i < out.length; i++) {
            int b;
            try {
                b = Integer.parseInt(values.get(i).strip());
            } catch (NumberFormatException e) {
                b = -1;
            }
            if (b < 0 || b > 255) {
                s.problem(key + "[" + i + "]", "must be a byte value 0..255");
                return Optional.empty();
            }
            out[i] = (byte) b;
        }
        return out.length == 0 ? Optional.empty() : Optional.of(out);
    }
}
