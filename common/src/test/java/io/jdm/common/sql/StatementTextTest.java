package io.jdm.common.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StatementTextTest {
    @Test
    void lineBreaksAndRunsOfBlanksInCodeBecomeOneSpace() {
        assertEquals("ALTER TABLE t ADD CONSTRAINT c CHECK (n < 10)",
                StatementText.oneLine("  ALTER TABLE t\n\tADD CONSTRAINT c\r\n   CHECK (n < 10)\n"));
        assertEquals("CREATE TABLE t (a INT) /* two words */",
                StatementText.oneLine("CREATE TABLE t (a INT)\n/* two\n   words */"));
    }

    @Test
    void literalsKeepTheirBlanksOnOneLine() {
        assertEquals("ALTER TABLE t COMMENT 'a  b c'", StatementText.oneLine("ALTER TABLE t COMMENT 'a  b\nc'"));
        assertEquals("ALTER TABLE `a  b` ADD x INT", StatementText.oneLine("ALTER TABLE `a  b`\nADD x INT"));
    }

    @Test
    void passwordsAndConnectionUrlsAreHidden() {
        assertEquals("CREATE USER 'u'@'%' IDENTIFIED BY '***'",
                StatementText.oneLine("CREATE USER 'u'@'%' IDENTIFIED BY 's3cret'"));
        assertEquals("ALTER USER 'u'@'%' IDENTIFIED WITH caching_sha2_password BY '***'",
                StatementText.oneLine("ALTER USER 'u'@'%' IDENTIFIED WITH caching_sha2_password BY 's3cret'"));
        assertEquals("CREATE USER u IDENTIFIED WITH mysql_native_password AS '***'",
                StatementText.oneLine("CREATE USER u IDENTIFIED WITH mysql_native_password AS '*94BDCEBE19083CE2A1F'"));
        assertEquals("CREATE USER u IDENTIFIED VIA ed25519 USING PASSWORD('***')",
                StatementText.oneLine("CREATE USER u IDENTIFIED VIA ed25519 USING PASSWORD('s3cret')"));
        assertEquals("SET PASSWORD FOR u = '***'", StatementText.oneLine("SET PASSWORD FOR u = 's3cret'"));
        assertEquals("CHANGE MASTER TO MASTER_HOST='h', MASTER_PASSWORD = '***'",
                StatementText.oneLine("CHANGE MASTER TO MASTER_HOST='h', MASTER_PASSWORD = 's3cret'"));
        assertEquals("CREATE TABLE f (a INT) ENGINE=FEDERATED CONNECTION='***'",
                StatementText.oneLine("CREATE TABLE f (a INT) ENGINE=FEDERATED CONNECTION='mysql://u:s3cret@h/d/t'"));
        assertEquals("ALTER TABLE f CONNECTION /* new */ '***'",
                StatementText.oneLine("ALTER TABLE f CONNECTION /* new */ 'mysql://u:s3cret@h/d/t'"));
    }

    @Test
    void theWordsCountOnlyInCode() {
        String comment = "ALTER TABLE t COMMENT 'PASSWORD', ADD c INT DEFAULT 'kept'";
        assertEquals(comment, StatementText.oneLine(comment));
        String quoted = "ALTER TABLE `password` ADD d VARCHAR(9) DEFAULT 'kept'";
        assertEquals(quoted, StatementText.oneLine(quoted));
        String other = "UPDATE t SET password = LOWER('kept')"; // a column named so: a value, not a credential
        assertEquals(other, StatementText.oneLine(other));
    }

    @Test
    void aLongStatementIsCutWhereTheLineEnds() {
        String sql = "INSERT INTO t VALUES " + "(1, 'x'),".repeat(100);
        String shown = StatementText.shown(sql);
        assertEquals(StatementText.SHOWN + 2, shown.length());
        assertTrue(shown.startsWith("INSERT INTO t VALUES (1, 'x'),(1,") && shown.endsWith(" …"), shown);
        assertEquals("SELECT 1", StatementText.shown("SELECT\n1"));
        assertFalse(StatementText.shown("").contains("…"));
    }
}
