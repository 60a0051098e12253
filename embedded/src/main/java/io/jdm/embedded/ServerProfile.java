package io.jdm.embedded;

import java.util.List;

/**
 * The server options that make an embedded instance a binlog source or a plain target. The source
 * options differ by family: MariaDB has GTID always on (a domain id), MySQL needs {@code gtid_mode}
 * and {@code enforce_gtid_consistency}; both log ROW events with full images and CRC32 checksums.
 */
public enum ServerProfile {
    SOURCE(List.of(
            "--log-bin=mysql-bin",
            "--binlog-format=ROW",
            "--binlog-row-image=FULL",
            "--server-id=1",
            "--log-slave-updates=ON",
            "--binlog-checksum=CRC32"),
            List.of("--gtid-domain-id=0"),
            List.of("--gtid-mode=ON", "--enforce-gtid-consistency=ON")),
    /** A source whose binlog is off: what {@code jdm check} must reject for incremental tasks. */
    SOURCE_NO_BINLOG(List.of("--server-id=3"), List.of("--skip-log-bin"),
            List.of("--skip-log-bin")),
    TARGET(List.of("--server-id=2"), List.of("--skip-log-bin"), List.of("--skip-log-bin"));

    private final List<String> common;
    private final List<String> mariadb;
    private final List<String> mysql;

    ServerProfile(List<String> common, List<String> mariadb, List<String> mysql) {
        this.common = common;
        this.mariadb = mariadb;
        this.mysql = mysql;
    }

    List<String> args(ServerFlavor flavor) {
        List<String> own = flavor.isMySql() ? mysql : mariadb;
        return java.util.stream.Stream.concat(common.stream(), own.stream()).toList();
    }
}
