package io.jdm.common.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** MySQL 8's conditional-comment attributes, as SHOW CREATE TABLE prints them, in MariaDB's words. */
class MySqlOnlyAttributesTest {
    @Test
    void invisibleColumnsAndIndexesAndSridsGetMariadbsNames() {
        String mysql = "CREATE TABLE `t` (\n"
                + "  `my_row_id` bigint unsigned NOT NULL AUTO_INCREMENT /*!80023 INVISIBLE */,\n"
                + "  `c` int DEFAULT NULL /*!80023 INVISIBLE */,\n"
                + "  `p` point NOT NULL /*!80003 SRID 4326 */,\n"
                + "  `s` varchar(40) DEFAULT '/*!80023 INVISIBLE */',\n"
                + "  PRIMARY KEY (`my_row_id`),\n"
                + "  KEY `k` (`c`) /*!80000 INVISIBLE */,\n"
                + "  SPATIAL KEY `sp` (`p`)\n"
                + ") ENGINE=InnoDB /*!50100 COMMENT 'x' */";
        MySqlOnlyAttributes.Rewrite r = MySqlOnlyAttributes.forMariadb(mysql);
        assertEquals("CREATE TABLE `t` (\n"
                + "  `my_row_id` bigint unsigned NOT NULL AUTO_INCREMENT INVISIBLE,\n"
                + "  `c` int DEFAULT NULL INVISIBLE,\n"
                + "  `p` point REF_SYSTEM_ID=4326 NOT NULL ,\n"
                + "  `s` varchar(40) DEFAULT '/*!80023 INVISIBLE */',\n"
                + "  PRIMARY KEY (`my_row_id`),\n"
                + "  KEY `k` (`c`) IGNORED,\n"
                + "  SPATIAL KEY `sp` (`p`)\n"
                + ") ENGINE=InnoDB /*!50100 COMMENT 'x' */", r.sql());
        assertEquals(4, r.changes().size(), r.changes().toString());
    }

    @Test
    void aStatementOnOneLineOrWithoutSuchCommentsIsLeftAsItIs() {
        for (String sql : List.of("CREATE TABLE t (c INT /*!80023 INVISIBLE */)",
                "CREATE TABLE `t` (\n  `a` int,\n  CONSTRAINT `c` CHECK (`a` > 0) /*!80016 NOT ENFORCED */\n)")) {
            MySqlOnlyAttributes.Rewrite r = MySqlOnlyAttributes.forMariadb(sql);
            assertEquals(sql, r.sql());
            assertEquals(List.of(), r.changes());
        }
    }
}
