package io.jdm.embedded;

import java.util.List;

/** The server options that make an embedded instance a binlog source or a plain target. */
public enum ServerProfile {
    SOURCE(List.of(
            "--log-bin=mysql-bin",
            "--binlog-format=ROW",
            "--binlog-row-image=FULL",
            "--server-id=1",
            "--gtid-domain-id=0",
            "--log-slave-updates=ON",
            "--binlog-checksum=CRC32")),
    /** A source whose binlog is off: what {@code jdm check} must reject for incremental tasks. */
    SOURCE_NO_BINLOG(List.of("--server-id=3", "--skip-log-bin")),
    TARGET(List.of("--server-id=2", "--skip-log-bin"));

    private final List<String> args;

    ServerProfile(List<String> args) {
        this.args = args;
    }

    List<String> args() {
        return args;
    }
}
