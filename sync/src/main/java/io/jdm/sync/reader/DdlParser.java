package io.jdm.sync.reader;

import io.jdm.common.sql.SqlDialect;
import io.jdm.common.sql.SqlScanner;
import io.jdm.common.sql.TableName;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.Lexer;
import org.antlr.v4.runtime.Parser;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.atn.PredictionMode;

/**
 * Recognises the DDL statements sync applies (CREATE/ALTER/DROP/RENAME/TRUNCATE TABLE,
 * CREATE/DROP INDEX, CREATE/DROP DATABASE; ALTER DATABASE is located but not applied) and finds
 * where each table name sits in the text, with the grammar of the source's flavour
 * ({@link DdlGrammar}: Debezium's ANTLR grammars of MariaDB's and of MySQL's SQL).
 *
 * <pre>
 *  statement ─► SqlScanner.normalize (same length: comments blanked, conditional comments the
 *               server runs opened, ANSI "names" as `names`)
 *            ─► lexer ─► head: one of ours? (else null: views, routines, users, temporary tables)
 *            ─► the source's grammar ─► read? ─► {@link DdlNames} walks the tree: each name's
 *               span, read from the original text
 *                                     └ not read ─► the other grammar ─► read? ─► DdlNames
 *                                                                       └ not read ─► UnreadableDdlException
 *                                                                         (the first grammar's error;
 *                                                                          the caller stops the task)
 * </pre>
 *
 * <p>Why a second grammar: a statement in the binlog ran on the source, so one the source's
 * grammar cannot read shows a gap in that grammar, not an error in the statement, and much of
 * each flavour's DDL is the other's too (MySQL's grammar reads no ALTER DATABASE without a name,
 * which MariaDB's does). Callers that do not know the source's flavour (the overloads without a grammar) try MariaDB's
 * grammar first, then MySQL's.
 *
 * <p>The generated lexers and parsers share their DFA cache in static fields, so a new pair per
 * statement is cheap once the first statements have warmed the cache; a statement is parsed in
 * the fast SLL mode first and again in full LL only when that fails.
 */
final class DdlParser {
    /** The words as both grammars' lexers name them (MySQL's CREATE_SYMBOL is CREATE: {@link DdlGrammar#word}). */
    private static final Set<String> VERBS = Set.of("CREATE", "ALTER", "DROP", "RENAME", "TRUNCATE");
    private static final Set<String> OBJECTS = Set.of("TABLE", "INDEX", "DATABASE", "SCHEMA");
    /** Words between the verb and the object: CREATE OR REPLACE UNIQUE INDEX, ALTER ONLINE IGNORE TABLE. */
    private static final Set<String> MODIFIERS = Set.of("OR", "REPLACE", "ONLINE", "OFFLINE", "IGNORE", "UNIQUE",
            "FULLTEXT", "SPATIAL");
    /** The heads of row-changing statements: in a QUERY event they were logged as statements, not rows. */
    private static final Set<String> DML = Set.of("INSERT", "REPLACE", "UPDATE", "DELETE", "LOAD", "WITH");
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
        return parse(defaultDb, sql, SqlDialect.DEFAULT);
    }

    /** {@link #parse(String, String, SqlDialect, DdlGrammar)} for a source of unknown flavour: MariaDB's grammar first. */
    static ParsedDdl parse(String defaultDb, String sql, SqlDialect dialect) {
        return parse(defaultDb, sql, dialect, DdlGrammar.mariadb());
    }

    /**
     * The statement with its names located, or null when it is not a DDL sync applies.
     *
     * @param grammar the source's grammar, tried first; the other is tried when it cannot read the statement
     * @throws UnreadableDdlException when the statement is one sync applies but neither grammar can read it
     */
    static ParsedDdl parse(String defaultDb, String sql, SqlDialect dialect, DdlGrammar grammar) {
        try {
            return read(defaultDb, sql, dialect, grammar, grammar);
        } catch (UnreadableDdlException first) {
            try {
                return read(defaultDb, sql, dialect, grammar.other(), grammar);
            } catch (UnreadableDdlException second) {
                throw first;
            }
        }
    }

    /** As {@link #parse(String, String, SqlDialect, DdlGrammar)}, with {@code grammar} only. */
    static ParsedDdl parseWith(String defaultDb, String sql, SqlDialect dialect, DdlGrammar grammar) {
        return read(defaultDb, sql, dialect, grammar, grammar);
    }

    /** True when the statement's head is one of a DDL sync applies, whether or not the grammar can read the rest. */
    static boolean isDdl(String sql, DdlGrammar grammar) {
        return isOurs(lex(MYSQL.normalize(sql), grammar, new FirstError()), grammar);
    }

    /**
     * True for the {@code CREATE TABLE … START TRANSACTION} MySQL 8.0.21+ logs for CREATE TABLE …
     * SELECT (GTIDs on): the first statement of a transaction whose rows follow as row events, up
     * to its XID. The server writes the option as the statement's last words. (The statement
     * itself loses the option when parsed: see {@link DdlNames}.)
     */
    static boolean opensTransaction(String sql, DdlGrammar grammar) {
        CommonTokenStream tokens = lex(MYSQL.normalize(sql), grammar, new FirstError());
        if (!"TABLE".equals(object(tokens, grammar))) {
            return false;
        }
        List<String> words = tokens.getTokens().stream()
                .filter(t -> t.getChannel() == Token.DEFAULT_CHANNEL && t.getType() != Token.EOF)
                .map(t -> grammar.word(t.getType())).toList();
        return words.get(0).equals("CREATE")
                && words.subList(words.size() - 2, words.size()).equals(List.of("START", "TRANSACTION"));
    }

    /** The statement's first word when it changes rows (INSERT, REPLACE, UPDATE, DELETE, LOAD, WITH), else null. */
    static String dmlVerb(String sql, DdlGrammar grammar) {
        Lexer lexer = grammar.lexer(CharStreams.fromString(MYSQL.normalize(sql)));
        lexer.removeErrorListeners();
        for (Token t = lexer.nextToken(); t.getType() != Token.EOF; t = lexer.nextToken()) {
            if (t.getChannel() == Token.DEFAULT_CHANNEL) { // the first word only: no need to lex a long statement
                return DML.contains(grammar.word(t.getType())) ? t.getText().toUpperCase(Locale.ROOT) : null;
            }
        }
        return null;
    }

    /** The statement as {@code grammar} reads it; the parsed statement carries the {@code source}'s grammar. */
    private static ParsedDdl read(String defaultDb, String sql, SqlDialect dialect, DdlGrammar grammar,
                                  DdlGrammar source) {
        SqlScanner scanner = dialect.equals(SqlDialect.DEFAULT) ? MYSQL : new SqlScanner(dialect);
        String text = scanner.normalize(sql);
        FirstError errors = new FirstError();
        CommonTokenStream tokens = lex(text, grammar, errors);
        if (!isOurs(tokens, grammar)) {
            return null;
        }
        ParserRuleContext tree = parseTree(tokens, grammar, errors);
        if (errors.message != null) {
            throw new UnreadableDdlException(sql, errors.message);
        }
        return new DdlNames(grammar, defaultDb == null ? "" : defaultDb, sql, text, scanner).read(tree, source);
    }

    private static CommonTokenStream lex(String text, DdlGrammar grammar, FirstError errors) {
        Lexer lexer = grammar.lexer(CharStreams.fromString(text));
        lexer.removeErrorListeners();
        lexer.addErrorListener(errors);
        CommonTokenStream tokens = new CommonTokenStream(lexer);
        tokens.fill();
        return tokens;
    }

    /** CREATE/ALTER/DROP/RENAME [modifiers] TABLE/INDEX/DATABASE/SCHEMA, or TRUNCATE; not TEMPORARY. */
    private static boolean isOurs(CommonTokenStream tokens, DdlGrammar grammar) {
        return object(tokens, grammar) != null;
    }

    /** What a DDL sync applies acts on (TABLE, INDEX, DATABASE, SCHEMA; TABLE for TRUNCATE), or null for any other statement. */
    private static String object(CommonTokenStream tokens, DdlGrammar grammar) {
        List<Token> all = tokens.getTokens();
        int i = 0;
        while (i < all.size() && all.get(i).getChannel() != Token.DEFAULT_CHANNEL) {
            i++;
        }
        if (i == all.size() || !VERBS.contains(grammar.word(all.get(i).getType()))) {
            return null;
        }
        if (grammar.word(all.get(i).getType()).equals("TRUNCATE")) {
            return "TABLE";
        }
        for (i++; i < all.size(); i++) {
            Token t = all.get(i);
            if (t.getChannel() != Token.DEFAULT_CHANNEL) {
                continue;
            }
            String word = grammar.word(t.getType());
            if (OBJECTS.contains(word)) {
                return word;
            }
            if (!MODIFIERS.contains(word)) {
                return null; // TEMPORARY, VIEW, DEFINER=…, PROCEDURE, USER …
            }
        }
        return null;
    }

    private static ParserRuleContext parseTree(CommonTokenStream tokens, DdlGrammar grammar, FirstError errors) {
        tokens.seek(0);
        Parser parser = grammar.parser(tokens);
        parser.removeErrorListeners();
        FirstError sll = new FirstError();
        parser.addErrorListener(sll);
        parser.getInterpreter().setPredictionMode(PredictionMode.SLL);
        ParserRuleContext tree = grammar.statements(parser);
        if (sll.message == null || errors.message != null) {
            return tree;
        }
        tokens.seek(0);
        parser.reset();
        parser.removeErrorListeners();
        parser.addErrorListener(errors);
        parser.getInterpreter().setPredictionMode(PredictionMode.LL);
        return grammar.statements(parser);
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
