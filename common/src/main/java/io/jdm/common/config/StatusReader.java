package io.jdm.common.config;

import io.jdm.common.jdbc.Pem;
import io.jdm.common.jdbc.Tls;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code status-addr}, {@code status-token} or {@code status-token-file}, and {@code status-tls-cert}
 * with {@code status-tls-key}. The token is accepted only from where a secret belongs:
 * {@code status-token} must be exactly one {@code ${VAR}} (so the value is in the environment, as
 * passwords are), {@code status-token-file} names a file (a Kubernetes Secret volume, a systemd
 * credential). A token typed into the task file is refused: whoever can read the file (a ConfigMap,
 * a repository) could operate the task. Files are named relative to the task file and read and
 * checked here, at load; neither a token nor a key is ever shown.
 */
final class StatusReader {
    /** 16 characters of hex are 64 bits: too many guesses for an endpoint that answers each one over the network. */
    static final int MIN_TOKEN_LENGTH = 16;
    private static final Pattern HOST_PORT = Pattern.compile(".+:(\\d{1,5})");
    private static final Pattern ONE_VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");
    /** RFC 6750's token characters are fewer; any visible ASCII travels in a header unchanged. */
    private static final Pattern VISIBLE_ASCII = Pattern.compile("[\\x21-\\x7e]+");
    private static final String MAKE_ONE = "openssl rand -hex 32 makes one";
    private static final String TOKEN = TaskRootKeys.STATUS_TOKEN.name();
    private static final String TOKEN_FILE = TaskRootKeys.STATUS_TOKEN_FILE.name();
    private static final String TLS_CERT = TaskRootKeys.STATUS_TLS_CERT.name();
    private static final String TLS_KEY = TaskRootKeys.STATUS_TLS_KEY.name();

    private final Section root;

    private StatusReader(Section root) {
        this.root = root;
    }

    static StatusConfig read(Section root) {
        StatusReader r = new StatusReader(root);
        return new StatusConfig(TaskRootKeys.STATUS_ADDR.read(root), r.token(), r.tls());
    }

    /** The reader of {@link TaskRootKeys#STATUS_ADDR}: host:port with a port in 1..65535. */
    static String addr(Section root, TaskKey<String> k) {
        String key = k.name();
        Optional<String> v = root.optionalMatching(key, HOST_PORT, "be host:port");
        if (v.isPresent()) {
            Matcher m = HOST_PORT.matcher(v.get());
            int port = m.matches() ? Integer.parseInt(m.group(1)) : 0;
            if (port < 1 || port > 65535) {
                root.problem(key, "port must be 1..65535, got " + root.shown(key));
            }
        }
        return v.orElse(k.def());
    }

    private Secret token() {
        boolean inline = root.has(TOKEN);
        boolean file = root.has(TOKEN_FILE);
        if (inline && file) {
            root.problem(TOKEN_FILE, "set status-token or status-token-file, not both");
            return Secret.EMPTY;
        }
        return inline ? fromEnvironment() : file ? fromFile() : Secret.EMPTY;
    }

    private Secret fromEnvironment() {
        Matcher written = ONE_VARIABLE.matcher(root.written(TOKEN));
        if (!written.matches()) {
            root.problem(TOKEN, "must be one environment variable, as \"${JDM_STATUS_TOKEN}\", or use "
                    + "status-token-file: a token written in the task file is read by whoever reads the file");
            return Secret.EMPTY;
        }
        Secret value = root.secret(TOKEN);
        if (root.ctx().env().apply(written.group(1)) == null) {
            return Secret.EMPTY; // the substitution said so: the variable is not set
        }
        return checked(TOKEN, value.reveal(), "");
    }

    /** The file's text without surrounding white space (the newline an editor or echo leaves). */
    private Secret fromFile() {
        Optional<byte[]> bytes = readFile(TOKEN_FILE);
        if (bytes.isEmpty()) {
            return Secret.EMPTY;
        }
        String what = "the token in " + root.shown(TOKEN_FILE) + " ";
        try {
            String text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes.get())).toString();
            return checked(TOKEN_FILE, text.strip(), what);
        } catch (CharacterCodingException e) {
            root.problem(TOKEN_FILE, what + "must be printable ASCII without spaces (" + MAKE_ONE + ")");
            return Secret.EMPTY;
        }
    }

    /** Certificate and key, set together, read and checked here; the key is never shown. */
    private Optional<StatusTls> tls() {
        boolean cert = root.has(TLS_CERT);
        boolean key = root.has(TLS_KEY);
        if (cert != key) {
            root.problem(cert ? TLS_KEY : TLS_CERT, "status-tls-cert and status-tls-key must be "
                    + "set together");
            return Optional.empty();
        }
        if (!cert) {
            return Optional.empty();
        }
        Optional<List<X509Certificate>> chain = readFile(TLS_CERT).flatMap(b -> pem(TLS_CERT,
                b, Pem::certificates));
        Optional<PrivateKey> privateKey = readFile(TLS_KEY).flatMap(b -> pem(TLS_KEY, b,
                Pem::privateKey));
        if (chain.isEmpty() || privateKey.isEmpty()) {
            return Optional.empty();
        }
        try {
            Tls.of(List.of(), chain.get(), privateKey.get()); // checks that the key signs for the certificate
        } catch (IllegalArgumentException e) {
            root.problem(TLS_KEY, root.shown(TLS_KEY) + " is not the key of the certificate in "
                    + root.shown(TLS_CERT));
            return Optional.empty();
        }
        return Optional.of(new StatusTls(chain.get(), privateKey.get()));
    }

    private <T> Optional<T> pem(String key, byte[] bytes, Function<byte[], T> parser) {
        try {
            return Optional.of(parser.apply(bytes));
        } catch (IllegalArgumentException e) {
            root.problem(key, root.shown(key) + " " + e.getMessage());
            return Optional.empty();
        }
    }

    /** The file {@code key} names, relative to the task file's directory; it must be there now. */
    private Optional<byte[]> readFile(String key) {
        Optional<String> name = root.text(key);
        if (name.isEmpty() || name.get().isBlank()) {
            if (name.isPresent()) {
                root.problem(key, "must name a file");
            }
            return Optional.empty();
        }
        Path p = root.ctx().baseDir().resolve(name.get());
        try {
            return Optional.of(Files.readAllBytes(p));
        } catch (NoSuchFileException e) {
            root.problem(key, "no such file " + root.shown(key));
        } catch (IOException e) {
            root.problem(key, "cannot read " + root.shown(key) + ": " + e.getClass().getSimpleName());
        }
        return Optional.empty();
    }

    private Secret checked(String key, String token, String what) {
        if (token.length() < MIN_TOKEN_LENGTH) {
            root.problem(key, what + "must be at least " + MIN_TOKEN_LENGTH + " characters (" + MAKE_ONE + "), got "
                    + token.length());
            return Secret.EMPTY;
        }
        if (!VISIBLE_ASCII.matcher(token).matches()) {
            root.problem(key, what + "must be printable ASCII without spaces (" + MAKE_ONE + ")");
            return Secret.EMPTY;
        }
        return Secret.of(token);
    }
}
