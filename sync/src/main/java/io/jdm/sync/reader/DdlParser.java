package io.jdm.sync.reader;

import io.debezium.ddl.parser.mariadb.generated.MariaDBLexer;
import io.debezium.ddl.parser.mariadb.generated.MariaDBParser;
import io.jdm.common.sql.SqlDialect;
import io.jdm.common.sql.SqlScanner;
import io.jdm.common.sql.TableName;
import java.util.List;
import java.util.Set;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.atn.PredictionMode;

/**
 * Recognises the DDL statements sync applies (CREATE/ALTER/DROP/RENAME/TRUNCATE TABLE,
 * CREATE/DROP INDEX, CREATE/DROP DATABASE; ALTER DATABASE is located but not applied) and finds
 * where each table name sits in the text, with Debezium's ANTLR grammar of MariaDB's SQL.
 *
 * <pre>
 *  statement ─► SqlScanner.normalize (same length: comments blanked, conditional comments the
 *               server runs opened, ANSI "names" as `names`)
 *            ─► lexer ─► head: one of ours? (else null: views, routines, users, temporary tables)
 *            ─► parser ─► syntax error? UnreadableDdlException (the caller stops the task)
 *            ─► {@link DdlNames} walks the tree: each name's span, read from the original text
 * </pre>
 *
 * <p>MariaDB's grammar, not MySQL's: it reads MariaDB's additions (CREATE OR REPLACE, IF [NOT]
 * EXISTS on columns and indexes, WAIT/NOWAIT, system versioning, MariaDB table options) that
 * MySQL's rejects, and it reads the MySQL 8 DDL tried against it (functional and invisible
 * indexes, ALGORITHM=INSTANT, CHECK constraints) as well.
 *
 * <p>The generated lexer and parser share their DFA cache in static fields, so a new pair per
 * statement is cheap once the first statements have warmed the cache; a statement is parsed in
 * the fast SLL mode first and again in full LL only when that fails.
 */
final class DdlParser {
    private static final Set<Integer> VERBS = Set.of(MariaDBLexer.CREATE, MariaDBLexer.ALTER, MariaDBLexer.DROP,
            MariaDBLexer.RENAME, MariaDBLexer.TRUNCATE);
    private static final Set<Integer> OBJECTS = Set.of(MariaDBLexer.TABLE, MariaDBLexer.INDEX,
            MariaDBLexer.DATABASE, MariaDBLexer.SCHEMA);
    /** Words between the verb and the object: CREATE OR REPLACE UNIQUE INDEX, ALTER ONLINE IGNORE TABLE. */
    private static final Set<Integer> MODIFIERS = Set.of(MariaDBLexer.OR, MariaDBLexer.REPLACE, MariaDBLexer.ONLINE,
            MariaDBLexer.OFFLINE, MariaDBLexer.IGNORE, MariaDBLexer.UNIQUE, MariaDBLexer.FULLTEXT,
            MariaDBLexer.SPATIAL);
    /** The heads of row-changing statements: in a QUERY event they were logged as statements, not rows. */
    private static final Set<Integer> DML = Set.of(MariaDBLexer.INSERT, MariaDBLexer.REPLACE, MariaDBLexer.UPDATE,
            MariaDBLexer.DELETE, MariaDBLexer.LOAD, MariaDBLexer.WITH);
    private static final SqlScanner MYSQL = new SqlScanner(SqlDialect.DEFAULT);

    private DdlParser() {
    }

    /** The tables a DDL statement acts on (old and new names of a rename); empty if it is not one sync applies. */
    static List<TableName> tables(String defaultDb, String sql) {
        ParsedDdl d = parse(defaultDb, sql);
        return d == null || d.isDatabase() ? List.of() : d.touched();
    }

    /** {@link #parse(String, String, SqlDialect)} with MySQL's default sql_mode on the newest server. */
    static ParsedDdl parse(String defaultDb, String sql) {
        return parse(defaultDb, sql, MYSQL);
    }

    /**
     * The statement with its names located, or null when it is not a DDL sync applies.
     *
     * @throws UnreadableDdlException when the statement is one sync applies but the grammar cannot read it
     */
    static ParsedDdl parse(String defaultDb, String sql, SqlDialect dialect) {
        return parse(defaultDb, sql, dialect.equals(SqlDialect.DEFAULT) ? MYSQL : new SqlScanner(dialect));
    }

    /** True when the statement's head is one of a DDL sync applies, whether or not the grammar can read the rest. */
    static boolean isDdl(String sql) {
        return isOurs(lex(MYSQL.normalize(sql), new FirstError()));
    }

    /** The statement's first word when it changes rows (INSERT, REPLACE, UPDATE, DELETE, LOAD, WITH), else null. */
    static String dmlVerb(String sql) {
        MariaDBLexer lexer = new MariaDBLexer(CharStreams.fromString(MYSQL.normalize(sql)));
        lexer.removeErrorListeners();
        for (Token t = lexer.nextToken(); t.getType() != Token.EOF; t = lexer.nextToken()) {
            if (t.getChannel() == Token.DEFAULT_CHANNEL) { // the first word only: no need to lex a long statement
                return DML.contains(t.getType()) ? t.getText().toUpperCase(java.util.Locale.ROOT) : null;
            }
        }
        return null;
    }

    private static ParsedDdl parse(String defaultDb, String sql, SqlScanner scanner) {
        String text = scanner.normalize(sql);
        FirstError errors = new FirstError();
        CommonTokenStream tokens = lex(text, errors);
        if (!isOurs(tokens)) {
            return null;
        }
        MariaDBParser.SqlStatementsContext tree = parseTree(tokens, errors);
        if (errors.message != null) {
            throw new UnreadableDdlException(sql, errors.message);
        }
        return new DdlNames(defaultDb == null ? "" : defaultDb, sql, text, scanner).read(tree);
    }

    private static CommonTokenStream lex(String text, FirstError errors) {
        MariaDBLexer lexer = new MariaDBLexer(CharStreams.fromString(text));
        lexer.removeErrorListeners();
        lexer.addErrorListener(errors);
        CommonTokenStream tokens = new CommonTokenStream(lexer);
        tokens.fill();
        return tokens;
    }

    /** CREATE/ALTER/DROP/RENAME [modifiers] TABLE/INDEX/DATABASE/SCHEMA, or TRUNCATE; not TEMPORARY. */
    private static boolean isOurs(CommonTokenStream tokens) {
        List<Token> all = tokens.getTokens();
        int i = 0;
        while (i < all.size() && all.get(i).getChannel() != Token.DEFAULT_CHANNEL) {
            i++;
        }
        if (i == all.size() || !VERBS.contains(all.get(i).getType())) {
            return false;
        }
        if (all.get(i).getType() == MariaDBLexer.TRUNCATE) {
            return true;
        }
        for (i++; i < all.size(); i++) {
            Token t = all.get(i);
            if (t.getChannel() != Token.DEFAULT_CHANNEL) {
                continue;
            }
            if (OBJECTS.contains(t.getType())) {
                return true;
            }
            if (!MODIFIERS.contains(t.getType())) {
                return false; // TEMPORARY, VIEW, DEFINER=…, PROCEDURE, USER …
            }
        }
        return false;
    }

    private static MariaDBParser.SqlStatementsContext parseTree(CommonTokenStream tokens, FirstError errors) {
        tokens.seek(0);
        MariaDBParser parser = new MariaDBParser(tokens);
        parser.removeErrorListeners();
        FirstError sll = new FirstError();
        parser.addErrorListener(sll);
        parser.getInterpreter().setPredictionMode(PredictionMode.SLL);
        MariaDBParser.SqlStatementsContext tree = parser.root().sqlStatements();
        if (sll.message == null || errors.message != null) {
            return tree;
        }
        tokens.seek(0);
        parser.reset();
        parser.removeErrorListeners();
        parser.addErrorListener(errors);
        parser.getInterpreter().setPredictionMode(PredictionMode.LL);
        return parser.root().sqlStatements();
    }

    /** Keeps the first syntax error, as one line. */
    private static final class FirstError extends BaseErrorListener {
        String message;

        @Override
        public void syntaxError(Recognizer<?, ?> r, Object symbol, int line, int col, String msg, RecognitionException e) {
            if (message == null) {
                String near = symbol instanceof Token t ? " near '" + t.getText() + "'" : "";
                message = "line " + line + ":" + col + near + ": "
                        + (msg.length() > 120 ? msg.substring(0, 117) + "..." : msg);
            }
        }
    }
}
