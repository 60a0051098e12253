package io.jdm.common.config;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code status-addr}, {@code status-token} and {@code status-token-file}. The token is accepted only
 * from where a secret belongs: {@code status-token} must be exactly one {@code ${VAR}} (so the value
 * is in the environment, as passwords are), {@code status-token-file} names a file (a Kubernetes
 * Secret volume, a systemd credential) read here, at load. A token typed into the task file is
 * refused: whoever can read the file (a ConfigMap, a repository) could operate the task.
 */
final class StatusReader {
    /** 16 characters of hex are 64 bits: too many guesses for an endpoint that answers each one over the network. */
    static final int MIN_TOKEN_LENGTH = 16;
    private static final Pattern HOST_PORT = Pattern.compile(".+:(\\d{1,5})");
    private static final Pattern ONE_VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");
    /** RFC 6750's token characters are fewer; any visible ASCII travels in a header unchanged. */
    private static final Pattern VISIBLE_ASCII = Pattern.compile("[\\x21-\\x7e]+");
    private static final String MAKE_ONE = "openssl rand -hex 32 makes one";

    private final Section root;

    private StatusReader(Section root) {
        this.root = root;
    }

    static StatusConfig read(Section root) {
        StatusReader r = new StatusReader(root);
        return new StatusConfig(r.addr(), r.token());
    }

    private String addr() {
        Optional<String> v = root.optionalMatching("status-addr", HOST_PORT, "be host:port");
        if (v.isPresent()) {
            Matcher m = HOST_PORT.matcher(v.get());
            int port = m.matches() ? Integer.parseInt(m.group(1)) : 0;
            if (port < 1 || port > 65535) {
                root.problem("status-addr", "port must be 1..65535, got " + root.shown("status-addr"));
            }
        }
        return v.orElse(StatusConfig.DEFAULT_ADDR);
    }

    private Secret token() {
        boolean inline = root.has("status-token");
        boolean file = root.has("status-token-file");
        if (inline && file) {
            root.problem("status-token-file", "set status-token or status-token-file, not both");
            return Secret.EMPTY;
        }
        return inline ? fromEnvironment() : file ? fromFile() : Secret.EMPTY;
    }

    private Secret fromEnvironment() {
        Matcher written = ONE_VARIABLE.matcher(root.written("status-token"));
        if (!written.matches()) {
            root.problem("status-token", "must be one environment variable, as \"${JDM_STATUS_TOKEN}\", or use "
                    + "status-token-file: a token written in the task file is read by whoever reads the file");
            return Secret.EMPTY;
        }
        Secret value = root.secret("status-token");
        if (root.ctx().env().apply(written.group(1)) == null) {
            return Secret.EMPTY; // the substitution said so: the variable is not set
        }
        return checked("status-token", value.reveal(), "");
    }

    /** The file's text without surrounding white space (the newline an editor or echo leaves). */
    private Secret fromFile() {
        Optional<String> name = root.text("status-token-file");
        if (name.isEmpty() || name.get().isBlank()) {
            if (name.isPresent()) {
                root.problem("status-token-file", "must name a file");
            }
            return Secret.EMPTY;
        }
        Path p = root.ctx().baseDir().resolve(name.get());
        String shown = root.shown("status-token-file");
        try {
            String text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(Files.readAllBytes(p)))
                    .toString();
            return checked("status-token-file", text.strip(), "the token in " + shown + " ");
        } catch (NoSuchFileException e) {
            root.problem("status-token-file", "no such file " + shown);
        } catch (CharacterCodingException e) {
            root.problem("status-token-file", "the token in " + shown + " must be printable ASCII without spaces");
        } catch (IOException e) {
            root.problem("status-token-file", "cannot read " + shown + ": " + e.getClass().getSimpleName());
        }
        return Secret.EMPTY;
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
