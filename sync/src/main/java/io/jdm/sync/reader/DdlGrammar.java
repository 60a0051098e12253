package io.jdm.sync.reader;

import io.debezium.ddl.parser.mariadb.generated.MariaDBLexer;
import io.debezium.ddl.parser.mariadb.generated.MariaDBParser;
import io.debezium.ddl.parser.mysql.generated.MySqlLexer;
import io.debezium.ddl.parser.mysql.generated.MySqlParser;
import io.jdm.common.config.EventType;
import io.jdm.common.position.Flavor;
import io.jdm.sync.reader.ParsedDdl.Role;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.Lexer;
import org.antlr.v4.runtime.Parser;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.TokenStream;
import org.antlr.v4.runtime.Vocabulary;

/**
 * One of Debezium's two ANTLR grammars of the source's SQL, and where in its trees each DDL sync
 * applies names its tables: the only place the two grammars differ for sync. {@link DdlParser}
 * lexes and parses with it, and {@link DdlNames} walks its trees by these tables.
 *
 * <ul>
 * <li>MariaDB's: MariaDB's additions (CREATE OR REPLACE, IF [NOT] EXISTS on columns and indexes,
 * WAIT/NOWAIT, system versioning) that MySQL's grammar rejects.
 * <li>MySQL's (MySQL's own grammar, version-aware): what MySQL 8 added that MariaDB's grammar
 * rejects ({@code ALTER COLUMN … SET [IN]VISIBLE}, {@code CHECK … NOT ENFORCED},
 * AUTOEXTEND_SIZE, {@code SRID}, {@code PARTITION BY KEY()}, the {@code START TRANSACTION} that
 * 8.0.21+ logs with CREATE TABLE … SELECT). It reads a statement as the source's version does.
 * </ul>
 *
 * <p>A table is found by a path of rule names (or alternative labels) from the statement's rule;
 * under one parent the first name found has one role and any further ones another
 * ({@code RENAME TABLE a TO b}: TABLE then TO). A statement whose rule has no form here is not
 * one sync applies. A new statement, or a grammar update that renames a rule, changes these
 * tables only.
 */
final class DdlGrammar {
    /** Where one kind of statement has its names, under its rule. */
    record Form(EventType kind, List<Spot> spots) {
    }

    /** The names at {@code path} (rule names or labels, each a child of the one before). */
    record Spot(List<String> path, Role first, Role rest) {
    }

    /** The statement's tables and databases. */
    private static final Map<String, Form> MARIADB_FORMS = Map.of(
            "createTable", form(EventType.CREATE_TABLE, spot(Role.TABLE, Role.LIKE, "tableName")),
            "alterTable", form(EventType.ALTER_TABLE, spot(Role.TABLE, "tableName"),
                    spot(Role.TO, "alterByRename", "uid"), spot(Role.TO, "alterByRename", "fullId"),
                    // EXCHANGE PARTITION p WITH TABLE u: u's rows change too
                    spot(Role.TABLE, "alterSpecification", "alterPartitionSpecification", "tableName")),
            "dropTable", form(EventType.DROP_TABLE, spot(Role.TABLE, "tables", "tableName")),
            "renameTable", form(EventType.RENAME_TABLE, spot(Role.TABLE, Role.TO, "renameTableClause", "tableName")),
            "truncateTable", form(EventType.TRUNCATE_TABLE, spot(Role.TABLE, "tableName")),
            "createIndex", form(EventType.CREATE_INDEX, spot(Role.TABLE, "tableName")),
            "dropIndex", form(EventType.DROP_INDEX, spot(Role.TABLE, "tableName")),
            "createDatabase", form(EventType.CREATE_DATABASE, spot(Role.DATABASE, "uid")),
            "dropDatabase", form(EventType.DROP_DATABASE, spot(Role.DATABASE, "uid")),
            // ALTER DATABASE is located for the tracker, not applied; UPGRADE DATA DIRECTORY NAME is neither
            "alterSimpleDatabase", form(EventType.OTHER_DDL, spot(Role.DATABASE, "uid")));

    private static final Map<String, Form> MYSQL_FORMS = Map.of(
            "createTable", form(EventType.CREATE_TABLE, spot(Role.TABLE, "tableName"), spot(Role.LIKE, "tableRef")),
            "alterTable", form(EventType.ALTER_TABLE, spot(Role.TABLE, "tableRef"), spot(Role.TO,
                    "alterTableActions", "alterCommandList", "alterList", "alterListItem", "tableName"),
                    spot(Role.TABLE, "alterTableActions", "standaloneAlterCommands", "alterPartition", "tableRef")),
            "dropTable", form(EventType.DROP_TABLE, spot(Role.TABLE, "tableRefList", "tableRef")),
            "renameTableStatement", form(EventType.RENAME_TABLE, spot(Role.TABLE, "renamePair", "tableRef"),
                    spot(Role.TO, "renamePair", "tableName")),
            "truncateTableStatement", form(EventType.TRUNCATE_TABLE, spot(Role.TABLE, "tableRef")),
            "createIndex", form(EventType.CREATE_INDEX, spot(Role.TABLE, "createIndexTarget", "tableRef")),
            "dropIndex", form(EventType.DROP_INDEX, spot(Role.TABLE, "tableRef")),
            "createDatabase", form(EventType.CREATE_DATABASE, spot(Role.DATABASE, "schemaName")),
            "dropDatabase", form(EventType.DROP_DATABASE, spot(Role.DATABASE, "schemaRef")),
            "alterDatabase", form(EventType.OTHER_DDL, spot(Role.DATABASE, "schemaRef")));

    /** A foreign key's referenced table, at any depth under the statement. */
    private static final List<String> MARIADB_REFERENCES = List.of("referenceDefinition", "tableName");
    private static final List<String> MYSQL_REFERENCES = List.of("references", "tableRef");

    /**
     * The table options of a CREATE TABLE: MySQL 8.0.21+ logs CREATE TABLE … SELECT as
     * {@code CREATE TABLE t (…) START TRANSACTION} followed by the rows, and that option is for
     * the binlog's reader only. MariaDB's grammar has none.
     */
    private static final List<String> MYSQL_TABLE_OPTIONS = List.of("createTableOptionsEtc", "createTableOptions",
            "createTableOption");

    /** The rules of an ALTER TABLE's clauses (see {@link AlterClauses}); a clause's own clauses are not looked into. */
    private static final Set<String> MARIADB_ALTER_CLAUSES = Set.of("alterSpecification", "alterPartitionSpecification",
            "partitionDefinitions");
    private static final Set<String> MYSQL_ALTER_CLAUSES = Set.of("alterListItem", "createTableOptionsSpaceSeparated",
            "alterCommandsModifier", "standaloneAlterCommands", "alterPartition", "partitionClause",
            "removePartitioning");

    /** MySQL's grammar from this version on, where the source's is unknown. */
    static final int NEWEST_MYSQL = 80200;
    private static final Pattern VERSION = Pattern.compile("(\\d+)\\.(\\d+)\\.(\\d+)");

    /**
     * Each grammar built on first use: loading one (its lexer's and parser's ATNs) takes 0.3 to 1 s
     * of CPU, and a source needs only its own flavour's unless a statement falls back to the other.
     */
    private static final class MariaDb {
        static final DdlGrammar GRAMMAR = new DdlGrammar("MariaDB", 0, MariaDBLexer.VOCABULARY,
                MariaDBParser.ruleNames, MARIADB_FORMS, MARIADB_REFERENCES, null, MARIADB_ALTER_CLAUSES,
                "sqlStatement", MariaDBLexer::new, MariaDBParser::new, p -> ((MariaDBParser) p).root());
    }

    private static final class MySql {
        static final DdlGrammar GRAMMAR = mysql(NEWEST_MYSQL);
    }

    private final String name;
    private final int version;
    private final String[] words;
    private final String[] ruleNames;
    private final Map<String, Form> forms;
    private final List<String> references;
    private final List<String> tableOptions;
    private final Set<String> alterClauses;
    private final String statementRule;
    private final Function<CharStream, Lexer> lexer;
    private final Function<TokenStream, Parser> parser;
    private final Function<Parser, ParserRuleContext> root;

    private DdlGrammar(String name, int version, Vocabulary vocabulary, String[] ruleNames, Map<String, Form> forms,
                       List<String> references, List<String> tableOptions, Set<String> alterClauses,
                       String statementRule,
                       Function<CharStream, Lexer> lexer, Function<TokenStream, Parser> parser,
                       Function<Parser, ParserRuleContext> root) {
        this.name = name;
        this.version = version;
        this.words = words(vocabulary);
        this.ruleNames = ruleNames;
        this.forms = forms;
        this.references = references;
        this.tableOptions = tableOptions;
        this.alterClauses = alterClauses;
        this.statementRule = statementRule;
        this.lexer = lexer;
        this.parser = parser;
        this.root = root;
    }

    /** MySQL's grammar as a server of {@code version} (8.0.31 is 80031) reads a statement. */
    static DdlGrammar mysql(int version) {
        return new DdlGrammar("MySQL", version, MySqlLexer.VOCABULARY, MySqlParser.ruleNames, MYSQL_FORMS,
                MYSQL_REFERENCES, MYSQL_TABLE_OPTIONS, MYSQL_ALTER_CLAUSES, "query", text -> {
                    MySqlLexer l = new MySqlLexer(text);
                    l.serverVersion = version;
                    l.sqlModes = Set.of(); // the text is normalized: no ANSI quotes, no backslash to keep
                    return l;
                }, tokens -> {
                    MySqlParser p = new MySqlParser(tokens);
                    p.serverVersion = version;
                    p.sqlModes = Set.of();
                    return p;
                }, p -> ((MySqlParser) p).queries());
    }

    /** MariaDB's grammar. */
    static DdlGrammar mariadb() {
        return MariaDb.GRAMMAR;
    }

    /** MySQL's grammar as the newest MySQL reads a statement. */
    static DdlGrammar mysql() {
        return MySql.GRAMMAR;
    }

    /** The grammar of a source of {@code flavor} that reports {@code version} (SELECT VERSION(); may be null). */
    static DdlGrammar of(Flavor flavor, String version) {
        if (flavor == Flavor.MARIADB) {
            return mariadb();
        }
        Matcher m = VERSION.matcher(version == null ? "" : version);
        if (!m.lookingAt()) {
            return mysql();
        }
        return mysql(Integer.parseInt(m.group(1)) * 10_000 + Integer.parseInt(m.group(2)) * 100
                + Integer.parseInt(m.group(3)));
    }

    /** The grammar tried when this one cannot read a statement. */
    DdlGrammar other() {
        return this == MariaDb.GRAMMAR ? mysql() : mariadb();
    }

    Lexer lexer(CharStream text) {
        return lexer.apply(text);
    }

    Parser parser(TokenStream tokens) {
        return parser.apply(tokens);
    }

    /** Parses every statement in the tokens. */
    ParserRuleContext statements(Parser p) {
        return root.apply(p);
    }

    /** A token type as a word both grammars spell alike: {@code CREATE} for MySQL's CREATE_SYMBOL. */
    String word(int tokenType) {
        return tokenType >= 0 && tokenType < words.length ? words[tokenType] : "";
    }

    /** The rule of a node: {@code createTable} for every alternative of it. */
    String rule(ParserRuleContext node) {
        return ruleNames[node.getRuleIndex()];
    }

    /** The statement form of a node (by its alternative's label, else its rule), or null. */
    Form form(ParserRuleContext node) {
        Form f = forms.get(label(node));
        return f != null ? f : forms.get(rule(node));
    }

    /** True when a node is at a path step: its rule's name or its alternative's label. */
    boolean is(ParserRuleContext node, String step) {
        return step.equals(rule(node)) || step.equals(label(node));
    }

    List<String> references() {
        return references;
    }

    /** The path to a CREATE TABLE's options, or null when the grammar reads none that sync drops. */
    List<String> tableOptions() {
        return tableOptions;
    }

    /** The rules of an ALTER TABLE's clauses. */
    Set<String> alterClauses() {
        return alterClauses;
    }

    /** The rule of one statement in the list the root holds. */
    String statementRule() {
        return statementRule;
    }

    /** The label ANTLR names an alternative's context class after; the rule's name when it has none. */
    private static String label(ParserRuleContext node) {
        String c = node.getClass().getSimpleName();
        String s = c.endsWith("Context") ? c.substring(0, c.length() - "Context".length()) : c;
        return s.isEmpty() ? s : Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }

    private static String[] words(Vocabulary v) {
        String[] out = new String[v.getMaxTokenType() + 1];
        for (int t = 0; t < out.length; t++) {
            String s = v.getSymbolicName(t);
            s = s == null ? "" : s.toUpperCase(Locale.ROOT);
            out[t] = s.endsWith("_SYMBOL") ? s.substring(0, s.length() - "_SYMBOL".length()) : s;
        }
        return out;
    }

    private static Form form(EventType kind, Spot... spots) {
        return new Form(kind, List.of(spots));
    }

    private static Spot spot(Role role, String... path) {
        return new Spot(List.of(path), role, role);
    }

    private static Spot spot(Role first, Role rest, String... path) {
        return new Spot(List.of(path), first, rest);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DdlGrammar g && g.name.equals(name) && g.version == version;
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + version;
    }

    @Override
    public String toString() {
        return version == 0 ? name + "'s grammar" : name + "'s grammar (" + version + ")";
    }
}
