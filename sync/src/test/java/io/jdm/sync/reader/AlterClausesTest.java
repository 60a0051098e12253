package io.jdm.sync.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jdm.common.config.EventType;
import io.jdm.common.schema.Column;
import io.jdm.common.schema.TableSchema;
import io.jdm.common.sql.SqlDialect;
import io.jdm.common.sql.TableName;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AlterClausesTest {
    private static final List<DdlGrammar> GRAMMARS = List.of(DdlGrammar.mariadb(), DdlGrammar.mysql());

    private static List<String> types(String sql, DdlGrammar g) {
        ParsedDdl d = DdlParser.parseWith("db", sql, SqlDialect.DEFAULT, g);
        List<String> out = new ArrayList<>();
        for (AlterClauses.Clause c : d.clauses()) {
            out.add(c.neutral() ? "-" : c.event().yamlName());
        }
        return out;
    }

    private static void check(String sql, String... expected) {
        for (DdlGrammar g : GRAMMARS) {
            assertEquals(List.of(expected), types(sql, g), sql + " in " + g);
        }
    }

    @Test
    void eachClauseGetsDmsType() {
        check("ALTER TABLE t ADD COLUMN c INT, DROP INDEX i", "add column", "drop index");
        check("ALTER TABLE t ADD c INT AFTER a", "add column");
        check("ALTER TABLE t ADD (c INT, d INT)", "add column");
        check("ALTER TABLE t DROP COLUMN c", "drop column");
        check("ALTER TABLE t DROP c, DROP KEY k, DROP PRIMARY KEY", "drop column", "drop index", "drop primary key");
        check("ALTER TABLE t DROP FOREIGN KEY fk", "drop foreign key");
        check("ALTER TABLE t ADD INDEX i (a), ADD UNIQUE KEY u (b)", "modify constraint", "modify constraint");
        check("ALTER TABLE t ADD PRIMARY KEY (a)", "add primary key");
        check("ALTER TABLE t ADD CONSTRAINT fk FOREIGN KEY (a) REFERENCES p (id)", "add foreign key");
        check("ALTER TABLE t MODIFY c BIGINT", "modify column");
        check("ALTER TABLE t CHANGE COLUMN a b INT", "modify column");
        check("ALTER TABLE t RENAME COLUMN a TO b", "rename column");
        check("ALTER TABLE t RENAME INDEX i TO j", "rename index");
        check("ALTER TABLE t RENAME TO u", "rename table");
        check("ALTER TABLE t ALTER COLUMN c SET DEFAULT 3", "set default value");
        check("ALTER TABLE t ALTER c DROP DEFAULT", "set default value");
        check("ALTER TABLE t ENGINE = MyISAM", "modify storage engine");
        check("ALTER TABLE t DEFAULT CHARSET = utf8mb4", "modify charset");
        check("ALTER TABLE t CONVERT TO CHARACTER SET utf8mb4", "modify charset");
        check("ALTER TABLE t COLLATE = utf8mb4_bin", "modify collation");
        check("ALTER TABLE t COMMENT = 'x'", "modify table comment");
        check("ALTER TABLE t AUTO_INCREMENT = 100", "rebase auto id");
        check("ALTER TABLE t DROP COLUMN c, ALGORITHM = INPLACE, LOCK = NONE", "drop column", "-", "-");
        check("ALTER TABLE t DROP PARTITION p1", "drop table partition");
        check("ALTER TABLE t TRUNCATE PARTITION p1", "truncate table partition");
        check("ALTER TABLE t ADD PARTITION (PARTITION p3 VALUES LESS THAN (30))", "add table partition");
        check("ALTER TABLE t COALESCE PARTITION 2", "coalesce table partition");
        check("ALTER TABLE t REMOVE PARTITIONING", "remove table partitioning");
        check("ALTER TABLE t FORCE", "alter table");
    }

    @Test
    void columnChangesAreTypedAgainstTheColumnBeforeAndAfter() {
        AlterClauses.ColumnChange modify = new AlterClauses.ColumnChange("c", "c", false);
        assertEquals(EventType.VALUE_RANGE_DECREASE, ColumnChanges.type(modify, table(col("c", "int", "int(11)")),
                table(col("c", "smallint", "smallint(6)"))));
        assertEquals(EventType.VALUE_RANGE_DECREASE, ColumnChanges.type(modify, table(col("c", "int", "int(11)")),
                table(col("c", "int", "int(10) unsigned"))));
        assertEquals(EventType.ALTER_TABLE, ColumnChanges.type(modify, table(col("c", "int", "int(11)")),
                table(col("c", "bigint", "bigint(20)"))));
        assertEquals(EventType.PRECISION_DECREASE, ColumnChanges.type(modify,
                table(col("c", "decimal", "decimal(10,2)")), table(col("c", "decimal", "decimal(10,1)"))));
        assertEquals(EventType.MODIFY_COLUMN, ColumnChanges.type(modify, table(col("c", "varchar", "varchar(20)")),
                table(col("c", "varchar", "varchar(10)"))));
        assertEquals(EventType.ALTER_TABLE, ColumnChanges.type(modify, table(col("c", "varchar", "varchar(20)")),
                table(col("c", "text", "text"))));
        assertEquals(EventType.MODIFY_COLUMN, ColumnChanges.type(modify, table(col("c", "varchar", "varchar(20)")),
                table(col("c", "int", "int(11)"))));
        assertEquals(EventType.MODIFY_COLUMNS_ORDER, ColumnChanges.type(new AlterClauses.ColumnChange("c", "c", true),
                table(col("c", "int", "int(11)")), table(col("c", "int", "int(11)"))));
        assertEquals(EventType.RENAME_COLUMN, ColumnChanges.type(new AlterClauses.ColumnChange("c", "d", false),
                table(col("c", "int", "int(11)")), table(col("d", "int", "int(11)"))));
        assertEquals(EventType.ALTER_TABLE, ColumnChanges.type(modify, null, table(col("c", "int", "int(11)"))));
    }

    @Test
    void aStatementLosesOnlyTheClausesAFilterSkips() {
        for (DdlGrammar g : GRAMMARS) {
            ParsedDdl d = DdlParser.parseWith("db", "/* app */ ALTER TABLE t ADD COLUMN c INT,\n DROP COLUMN b, "
                    + "ADD INDEX i (a), ALGORITHM=INPLACE", SqlDialect.DEFAULT, g);
            List<AlterClauses.Clause> all = d.clauses();
            assertEquals("/* app */ ALTER TABLE t ADD COLUMN c INT, ADD INDEX i (a), ALGORITHM=INPLACE",
                    DdlPlanner.without(d, List.of(all.get(1))), g.toString());
            assertEquals("/* app */ ALTER TABLE t DROP COLUMN b, ADD INDEX i (a), ALGORITHM=INPLACE",
                    DdlPlanner.without(d, List.of(all.get(0))), g.toString());
        }
    }

    private static Column col(String name, String dataType, String columnType) {
        return new Column(name, 1, dataType, columnType, true, false, null, null);
    }

    private static ColumnChanges.Shape table(Column c) {
        return new ColumnChanges.Shape(new TableSchema(new TableName("db", "t"), List.of(c), List.of(), List.of()),
                java.util.Map.of());
    }
}
