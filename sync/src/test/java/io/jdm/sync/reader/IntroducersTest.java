package io.jdm.sync.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class IntroducersTest {
    @Test
    void findsAnIntroducerOutsideStringsCommentsAndNames() {
        String blob = "ALTER TABLE t ADD b BLOB DEFAULT (_binary'\u00e9')";
        assertEquals(blob.indexOf("_binary"), Introducers.find(blob, false));
        assertEquals(4, Introducers.find("SET _latin1 \"x\"", false));
        assertEquals(-1, Introducers.find("ALTER TABLE t COMMENT 'a _latin1''x'''", false));
        assertEquals(-1, Introducers.find("ALTER TABLE `_latin1` COMMENT 'x' /* _binary'y' */ -- _utf8'z'\n", false));
        assertEquals(-1, Introducers.find("ALTER TABLE t ADD a_b INT COMMENT 'x'", false));
        assertEquals(-1, Introducers.find("ALTER TABLE t ADD _x INT DEFAULT 1", false));
    }

    @Test
    void aBackslashEndsAStringOnlyWithoutNoBackslashEscapes() {
        String sql = "ALTER TABLE t COMMENT 'C:\\' _binary'x'";
        assertEquals(-1, Introducers.find(sql, false), "\\' keeps the string open");
        assertEquals(sql.indexOf("_binary"), Introducers.find(sql, true),
                "the string ends at the quote after the backslash");
    }

    @Test
    void readsCommentsAndConditionalCommentsAsTheServerDoes() {
        assertEquals(-1, Introducers.find("ALTER TABLE t COMMENT 'x' --\t_binary'y'\n", false),
                "two dashes and a tab start a comment");
        String run = "ALTER TABLE t COMMENT /*!40101 _binary'x' */";
        assertEquals(run.indexOf("_binary"), Introducers.find(run, false), "the server runs the conditional comment");
    }
}
