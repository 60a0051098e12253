package io.jdm.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** A file's character set is utf8mb4 unless its first statement sets its own; the default runs once, first. */
class FileNamesTest {
    @Test
    void aFileThatSetsItsOwnNamesFirstGetsNoDefault() {
        FileNames n = new FileNames();
        assertNull(n.before("/*!40101 SET NAMES binary*/"));
        assertNull(n.before("SET sql_mode = ''"));
        assertNull(n.before("INSERT INTO t VALUES (1)"));
        assertNull(n.beforeRows());
    }

    @Test
    void anyOtherFirstStatementHasTheDefaultRunBeforeItOnce() {
        for (String first : new String[] {"SET sql_mode = ''", "INSERT INTO t VALUES (1)", "CREATE TABLE t (a INT)",
                "SET NAMES utf8mb4, sql_mode = ''"}) {
            FileNames n = new FileNames();
            assertEquals(FileNames.DEFAULT, n.before(first), first);
            assertNull(n.before("SET NAMES binary"), "a later SET NAMES runs as it is, after the default");
            assertNull(n.beforeRows());
        }
    }

    @Test
    void aFileWithNoStatementBeforeItsRowsHasTheDefault() {
        assertEquals(FileNames.DEFAULT, new FileNames().beforeRows());
    }
}
