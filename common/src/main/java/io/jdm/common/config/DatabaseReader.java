package io.jdm.common.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/** {@code target-database:} and a source's {@code from:}. */
final class DatabaseReader {
    /** Session variable names go into SET statements unquoted, so only plain names are accepted. */
    private static final Pattern VARIABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private DatabaseReader() {
    }

    /** The mapping under {@code key}, or a {@code required} problem and a placeholder. */
    static DatabaseConfig required(Section parent, String key) {
        Optional<Section> s = parent.section(key);
        if (s.isEmpty()) {
            if (!parent.has(key)) {
                parent.problem(key, "required");
            }
            return DatabaseConfig.of("", DatabaseConfig.DEFAULT_PORT, "", Secret.EMPTY);
        }
        return read(s.get());
    }

    static DatabaseConfig read(Section s) {
        String host = s.requiredText("host");
        int port = s.integer("port", DatabaseConfig.DEFAULT_PORT, 1, 65535);
        String user = s.requiredText("user");
        Secret password = DmCipher.decryptIfEncrypted(s.secret("password"));
        Map<String, String> session = session(s);
        SecurityConfig security = s.section("security").map(DatabaseReader::security).orElse(SecurityConfig.none());
        OptionalLong maxPacket = s.optionalLong("max-allowed-packet", 1024, 1L << 30);
        var timeout = s.seconds("connect-timeout", (int) DatabaseConfig.DEFAULT_CONNECT_TIMEOUT.toSeconds(), 1, 3600);
        s.finish();
        return new DatabaseConfig(host, port, user, password, session, security, maxPacket, timeout);
    }

    private static Map<String, String> session(Section s) {
        Map<String, String> session = s.textMap("session");
        for (String name : session.keySet()) {
            if (!VARIABLE.matcher(name).matches()) {
                s.problem("session." + name, "must be a variable name ([A-Za-z_][A-Za-z0-9_]*)");
            }
        }
        return session;
    }

    private static SecurityConfig security(Section s) {
        Optional<Path> ca = file(s, "ssl-ca");
        Optional<Path> cert = file(s, "ssl-cert");
        Optional<Path> key = file(s, "ssl-key");
        if (s.has("ssl-cert") != s.has("ssl-key")) {
            s.problem("ssl-cert and ssl-key must be set together");
        }
        s.finish();
        return new SecurityConfig(ca, cert, key);
    }

    /** A file named relative to the YAML file that names it; it must exist now, not at first connect. */
    private static Optional<Path> file(Section s, String key) {
        Optional<String> name = s.optionalText(key);
        if (name.isEmpty()) {
            return Optional.empty();
        }
        Path p = s.ctx().baseDir().resolve(name.get());
        if (!Files.isRegularFile(p)) {
            s.problem(key, "no such file " + s.shown(key));
        }
        return Optional.of(p);
    }
}
