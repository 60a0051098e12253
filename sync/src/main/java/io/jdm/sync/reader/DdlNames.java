package io.jdm.sync.reader;

import io.debezium.ddl.parser.mariadb.generated.MariaDBParser.AlterByRenameContext;
import io.debezium.ddl.parser.mariadb.generated.MariaDBParser.AlterSimpleDatabaseContext;
import io.debezium.ddl.parser.mariadb.generated.MariaDBParser.AlterTableContext;
import io.debezium.ddl.parser.mariadb.generated.MariaDBParser.CopyCreateTableContext;
import io.debezium.ddl.parser.mariadb.generated.MariaDBParser.CreateDatabaseContext;
import io.debezium.ddl.parser.mariadb.generated.MariaDBParser.CreateIndexContext;
import io.debezium.ddl.parser.mariadb.generated.MariaDBParser.CreateTableContext;
import io.debezium.ddl.parser.mariadb.generated.MariaDBParser.DdlStatementContext;
import io.debezium.ddl.parser.mariadb.generated.MariaDBParser.DropDatabaseContext;
import io.debezium.ddl.parser.mariadb.generated.MariaDBParser.DropIndexContext;
import io.debezium.ddl.parser.mariadb.generated.MariaDBParser.DropTableContext;
import io.debezium.ddl.parser.mariadb.generated.MariaDBParser.ReferenceDefinitionContext;
import io.debezium.ddl.parser.mariadb.generated.MariaDBParser.RenameTableClauseContext;
import io.debezium.ddl.parser.mariadb.generated.MariaDBParser.RenameTableContext;
import io.debezium.ddl.parser.mariadb.generated.MariaDBParser.SqlStatementContext;
import io.debezium.ddl.parser.mariadb.generated.MariaDBParser.SqlStatementsContext;
import io.debezium.ddl.parser.mariadb.generated.MariaDBParser.TableNameContext;
import io.debezium.ddl.parser.mariadb.generated.MariaDBParser.TruncateTableContext;
import io.jdm.common.config.EventType;
import io.jdm.common.sql.SqlScanner;
import io.jdm.common.sql.TableName;
import io.jdm.sync.reader.ParsedDdl.Ref;
import io.jdm.sync.reader.ParsedDdl.Role;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.tree.ParseTree;

/**
 * Finds the names in one parsed DDL statement: which rule holds a table name decides its role,
 * the tokens' positions give its span, and the name itself is read from the original text by the
 * statement's {@link SqlScanner} (the grammar saw a normalized copy of the same length).
 */
final class DdlNames {
    /** ALTER DATABASE with no name: the grammar takes the first option word for one. */
    private static final Set<String> NOT_A_NAME = Set.of("DEFAULT", "CHARACTER", "CHARSET", "COLLATE");

    private final String db;
    private final String sql;
    private final SqlScanner scanner;
    private final int[] charAt;
    private final List<Ref> refs = new ArrayList<>();

    DdlNames(String defaultDb, String sql, String normalized, SqlScanner scanner) {
        this.db = defaultDb;
        this.sql = sql;
        this.scanner = scanner;
        this.charAt = codePointOffsets(normalized);
    }

    /** The statement's names; null when the statement is not one sync applies after all. */
    ParsedDdl read(SqlStatementsContext statements) {
        List<SqlStatementContext> all = statements.sqlStatement();
        if (all.isEmpty() || all.get(0).ddlStatement() == null) {
            return null;
        }
        DdlStatementContext ddl = all.get(0).ddlStatement();
        for (SqlStatementContext extra : all.subList(1, all.size())) {
            // the grammar reads CREATE TABLE t (…) SELECT … as two statements; nothing else may follow
            if (ddl.createTable() == null || extra.dmlStatement() == null
                    || extra.dmlStatement().selectStatement() == null) {
                throw new UnreadableDdlException(sql, "more than one statement");
            }
        }
        EventType kind = locate(ddl);
        return kind == null ? null : new ParsedDdl(kind, sql, refs, scanner.dialect());
    }

    private EventType locate(DdlStatementContext ddl) {
        if (ddl.createTable() != null) {
            CreateTableContext c = ddl.createTable();
            List<TableNameContext> names = c.getRuleContexts(TableNameContext.class);
            name(names.get(0), Role.TABLE);
            if (c instanceof CopyCreateTableContext) {
                name(names.get(1), Role.LIKE);
            }
            references(c);
            return EventType.CREATE_TABLE;
        }
        if (ddl.alterTable() != null) {
            AlterTableContext a = ddl.alterTable();
            name(a.tableName(), Role.TABLE);
            for (var spec : a.alterSpecification()) {
                if (spec instanceof AlterByRenameContext r) {
                    name(r.uid() != null ? r.uid() : r.fullId(), Role.TO);
                }
            }
            references(a);
            return EventType.ALTER_TABLE;
        }
        if (ddl.dropTable() != null) {
            DropTableContext d = ddl.dropTable();
            d.tables().tableName().forEach(t -> name(t, Role.TABLE));
            return EventType.DROP_TABLE;
        }
        if (ddl.renameTable() != null) {
            RenameTableContext r = ddl.renameTable();
            for (RenameTableClauseContext pair : r.renameTableClause()) {
                name(pair.tableName(0), Role.TABLE);
                name(pair.tableName(1), Role.TO);
            }
            return EventType.RENAME_TABLE;
        }
        if (ddl.truncateTable() != null) {
            TruncateTableContext t = ddl.truncateTable();
            name(t.tableName(), Role.TABLE);
            return EventType.TRUNCATE_TABLE;
        }
        if (ddl.createIndex() != null) {
            CreateIndexContext i = ddl.createIndex();
            name(i.tableName(), Role.TABLE);
            return EventType.CREATE_INDEX;
        }
        if (ddl.dropIndex() != null) {
            DropIndexContext i = ddl.dropIndex();
            name(i.tableName(), Role.TABLE);
            return EventType.DROP_INDEX;
        }
        if (ddl.createDatabase() != null) {
            CreateDatabaseContext c = ddl.createDatabase();
            database(c.uid());
            return EventType.CREATE_DATABASE;
        }
        if (ddl.dropDatabase() != null) {
            DropDatabaseContext d = ddl.dropDatabase();
            database(d.uid());
            return EventType.DROP_DATABASE;
        }
        if (ddl.alterDatabase() instanceof AlterSimpleDatabaseContext a && a.uid() != null) {
            List<String> parts = parts(a.uid());
            if (isQuoted(a.uid()) || !NOT_A_NAME.contains(parts.get(0).toUpperCase(Locale.ROOT))) {
                database(a.uid());
                return EventType.OTHER_DDL;
            }
        }
        return null;
    }

    /** Every foreign key's referenced table under {@code node}. */
    private void references(ParseTree node) {
        if (node instanceof ReferenceDefinitionContext r) {
            name(r.tableName(), Role.REFERENCES);
            return;
        }
        for (int i = 0; i < node.getChildCount(); i++) {
            references(node.getChild(i));
        }
    }

    private void name(ParserRuleContext n, Role role) {
        List<String> parts = parts(n);
        TableName name = switch (parts.size()) {
            case 1 -> new TableName(db, parts.get(0));
            case 2 -> new TableName(parts.get(0), parts.get(1));
            default -> throw new UnreadableDdlException(sql, "not a table name: " + text(n));
        };
        refs.add(new Ref(name, start(n), end(n), role));
    }

    private void database(ParserRuleContext n) {
        List<String> parts = parts(n);
        if (parts.size() != 1) {
            throw new UnreadableDdlException(sql, "not a database name: " + text(n));
        }
        refs.add(new Ref(new TableName(parts.get(0), ""), start(n), end(n), Role.DATABASE));
    }

    private List<String> parts(ParserRuleContext n) {
        List<String> parts = scanner.identifiers(sql, start(n), end(n));
        if (parts == null) {
            throw new UnreadableDdlException(sql, "not a name: " + text(n));
        }
        return parts;
    }

    private boolean isQuoted(ParserRuleContext n) {
        char c = sql.charAt(start(n));
        return c == '`' || c == '"';
    }

    private String text(ParserRuleContext n) {
        return sql.substring(start(n), end(n));
    }

    private int start(ParserRuleContext n) {
        return charAt[n.getStart().getStartIndex()];
    }

    private int end(ParserRuleContext n) {
        return charAt[n.getStop().getStopIndex() + 1];
    }

    /** ANTLR counts code points; Java strings count UTF-16 units. Index i: the unit where code point i starts. */
    private static int[] codePointOffsets(String s) {
        int points = s.codePointCount(0, s.length());
        int[] at = new int[points + 1];
        int unit = 0;
        for (int p = 0; p < points; p++) {
            at[p] = unit;
            unit += Character.charCount(s.codePointAt(unit));
        }
        at[points] = unit;
        return at;
    }
}
