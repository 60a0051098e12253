package io.jdm.common.position;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Which statement reads a MySQL server's binlog position, by version. */
class FlavorStatusTest {

    @Test
    void mysql84AndLaterUseShowBinaryLogStatus() {
        assertEquals("SHOW MASTER STATUS", Flavor.mysqlStatusSql(5, 7));
        assertEquals("SHOW MASTER STATUS", Flavor.mysqlStatusSql(8, 0));
        assertEquals("SHOW BINARY LOG STATUS", Flavor.mysqlStatusSql(8, 4));
        assertEquals("SHOW BINARY LOG STATUS", Flavor.mysqlStatusSql(9, 1));
    }

    @Test
    void tidbIsKnownByItsVersionString() {
        assertEquals(Flavor.TIDB, Flavor.fromVersion("8.0.11-TiDB-v7.5.1"));
        assertEquals(Flavor.MARIADB, Flavor.fromVersion("11.4.5-MariaDB-log"));
        assertEquals(Flavor.MYSQL, Flavor.fromVersion("8.4.2"));
    }
}
