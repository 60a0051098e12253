package io.jdm.sync.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class AlterDatabaseTest {
    private static String rewritten(String defaultDb, String sql, boolean ansi) {
        AlterDatabase a = AlterDatabase.parse(defaultDb, sql, () -> ansi);
        return a == null ? null : a.db() + " | " + a.rewrite(sql, "`s`");
    }

    @Test
    void findsTheNameOrWhereItGoes() {
        assertEquals("d | ALTER DATABASE `s` CHARACTER SET utf8mb4",
                rewritten("x", "ALTER DATABASE d CHARACTER SET utf8mb4", false));
        assertEquals("my db | /* c */ alter schema `s` DEFAULT COLLATE latin1_bin",
                rewritten("x", "/* c */ alter schema `my db` DEFAULT COLLATE latin1_bin", false));
        assertEquals("a`b | ALTER DATABASE `s` CHARSET latin1",
                rewritten("x", "ALTER DATABASE `a``b` CHARSET latin1", false));
        assertEquals("x | ALTER DATABASE `s` CHARACTER SET latin1",
                rewritten("x", "ALTER DATABASE CHARACTER SET latin1", false));
        assertEquals("q | ALTER DATABASE `s` COLLATE utf8mb4_bin",
                rewritten("x", "ALTER DATABASE \"q\" COLLATE utf8mb4_bin", true));
    }

    @Test
    void leavesOtherStatementsAlone() {
        assertNull(rewritten("x", "ALTER TABLE t ADD c INT", false));
        assertNull(rewritten("x", "ALTER DATABASE `#mysql50#a-b` UPGRADE DATA DIRECTORY NAME", false));
        assertNull(rewritten("x", "ALTER DATABASE d UPGRADE DATA DIRECTORY NAME", false));
        assertNull(rewritten("", "ALTER DATABASE CHARACTER SET latin1", false));
        assertNull(rewritten("x", "GRANT ALL ON *.* TO u", false));
    }
}
