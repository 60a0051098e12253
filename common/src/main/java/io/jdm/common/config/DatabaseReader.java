package io.jdm.common.config;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/** {@code target-database:} and a source's {@code from:}; public for the bench's source and target. */
public final class DatabaseReader {
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

    public static DatabaseConfig read(Section s) {
        String host = s.requiredText("host");
        int port = s.integer("port", DatabaseConfig.DEFAULT_PORT, 1, 65535);
        String user = s.requiredText("user");
        Secret password = DmCipher.password(s, "password");
        Map<String, String> session = session(s);
        SecurityReader.Security security = s.section("security").map(SecurityReader::read)
                .orElse(SecurityReader.Security.NONE);
        OptionalLong maxPacket = s.optionalLong("max-allowed-packet", 1024, 1L << 30);
        var timeout = s.seconds("connect-timeout", (int) DatabaseConfig.DEFAULT_CONNECT_TIMEOUT.toSeconds(), 1, 3600);
        s.finish();
        return new DatabaseConfig(host, port, user, password, session, security.tls(), security.rsaKey(), maxPacket,
                timeout);
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
}
