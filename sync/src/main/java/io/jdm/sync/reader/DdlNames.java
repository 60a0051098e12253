package io.jdm.sync.reader;

import io.jdm.common.config.EventType;
import io.jdm.common.sql.SqlScanner;
import io.jdm.common.sql.TableName;
import io.jdm.sync.reader.DdlGrammar.Form;
import io.jdm.sync.reader.DdlGrammar.Spot;
import io.jdm.sync.reader.ParsedDdl.Ref;
import io.jdm.sync.reader.ParsedDdl.Role;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.tree.ParseTree;

/**
 * Finds the names in one parsed DDL statement, in the tree of either grammar: the statement's
 * rule gives its kind, and the rules on the way down to a table name give its role, both as
 * {@link DdlGrammar} tabulates them for that grammar. The tokens' positions give each name's
 * span, and the name itself is read from the original text by the statement's
 * {@link SqlScanner} (the grammar saw a normalized copy of the same length).
 */
final class DdlNames {
    /** ALTER DATABASE with no name: MariaDB's grammar takes the first option word for one. */
    private static final Set<String> NOT_A_NAME = Set.of("DEFAULT", "CHARACTER", "CHARSET", "COLLATE");

    private final DdlGrammar grammar;
    private final String db;
    private final String sql;
    private final SqlScanner scanner;
    private final int[] charAt;
    private final List<Ref> refs = new ArrayList<>();

    DdlNames(DdlGrammar grammar, String defaultDb, String sql, String normalized, SqlScanner scanner) {
        this.grammar = grammar;
        this.db = defaultDb;
        this.sql = sql;
        this.scanner = scanner;
        this.charAt = codePointOffsets(normalized);
    }

    /**
     * The statement's names; null when the statement is not one sync applies after all.
     *
     * @param source the grammar of the statement's source, which the parsed statement carries
     */
    ParsedDdl read(ParserRuleContext root, DdlGrammar source) {
        List<ParserRuleContext> all = new ArrayList<>();
        statements(root, all);
        ParserRuleContext statement = all.isEmpty() ? null : formOf(all.get(0));
        if (statement == null) {
            return null;
        }
        Form form = grammar.form(statement);
        for (ParserRuleContext extra : all.subList(1, all.size())) {
            // MariaDB's grammar reads CREATE TABLE t (…) SELECT … as two statements; nothing else may follow
            if (form.kind() != EventType.CREATE_TABLE || !leadsTo(extra, "selectStatement")) {
                throw new UnreadableDdlException(sql, "more than one statement");
            }
        }
        for (Spot spot : form.spots()) {
            at(statement, spot);
        }
        references(statement);
        if (refs.stream().noneMatch(r -> r.role() == Role.TABLE || r.role() == Role.DATABASE)) {
            if (form.kind() == EventType.OTHER_DDL) {
                return null; // ALTER DATABASE without a name: the default database's, followed by the tracker
            }
            throw new UnreadableDdlException(sql, "no table or database name in it");
        }
        if (form.kind() == EventType.OTHER_DDL && notAName(refs.get(0))) {
            return null;
        }
        refs.sort(Comparator.comparingInt(Ref::start));
        String text = form.kind() == EventType.CREATE_TABLE ? withoutStartTransaction(statement) : sql;
        List<AlterClauses.Clause> clauses = form.kind() == EventType.ALTER_TABLE
                ? new AlterClauses(grammar, sql, scanner, charAt).read(statement) : List.of();
        return new ParsedDdl(form.kind(), text, refs, scanner.dialect(), source, clauses);
    }

    /** The root's statements, in order. */
    private void statements(ParseTree node, List<ParserRuleContext> out) {
        for (int i = 0; i < node.getChildCount(); i++) {
            if (node.getChild(i) instanceof ParserRuleContext c) {
                if (grammar.is(c, grammar.statementRule())) {
                    out.add(c);
                } else {
                    statements(c, out);
                }
            }
        }
    }

    /** The node of the statement's form: down the first rule of each node; null when it has none. */
    private ParserRuleContext formOf(ParserRuleContext node) {
        for (ParserRuleContext n = node; n != null; n = firstRule(n)) {
            if (grammar.form(n) != null) {
                return n;
            }
        }
        return null;
    }

    private boolean leadsTo(ParserRuleContext node, String rule) {
        for (ParserRuleContext n = node; n != null; n = firstRule(n)) {
            if (grammar.is(n, rule)) {
                return true;
            }
        }
        return false;
    }

    private static ParserRuleContext firstRule(ParserRuleContext node) {
        for (int i = 0; i < node.getChildCount(); i++) {
            if (node.getChild(i) instanceof ParserRuleContext c) {
                return c;
            }
        }
        return null;
    }

    /** The names at the spot's path below {@code node}: under each parent, the first in one role, the rest in another. */
    private void at(ParserRuleContext node, Spot spot) {
        List<String> path = spot.path();
        List<ParserRuleContext> parents = path.size() == 1 ? List.of(node)
                : below(node, path.subList(0, path.size() - 1));
        for (ParserRuleContext parent : parents) {
            int found = 0;
            for (ParserRuleContext n : below(parent, path.subList(path.size() - 1, path.size()))) {
                if (spot.first() == Role.DATABASE) {
                    database(n);
                } else {
                    name(n, found++ == 0 ? spot.first() : spot.rest());
                }
            }
        }
    }

    /** The nodes at {@code path} below {@code node}, each step a child of the one before, in text order. */
    private List<ParserRuleContext> below(ParserRuleContext node, List<String> path) {
        List<ParserRuleContext> out = new ArrayList<>();
        for (int i = 0; i < node.getChildCount(); i++) {
            if (node.getChild(i) instanceof ParserRuleContext c && grammar.is(c, path.get(0))) {
                if (path.size() == 1) {
                    out.add(c);
                } else {
                    out.addAll(below(c, path.subList(1, path.size())));
                }
            }
        }
        return out;
    }

    /** Every foreign key's referenced table under {@code node}. */
    private void references(ParserRuleContext node) {
        List<String> path = grammar.references();
        for (int i = 0; i < node.getChildCount(); i++) {
            if (node.getChild(i) instanceof ParserRuleContext c) {
                if (grammar.is(c, path.get(0))) {
                    at(c, new Spot(path.subList(1, path.size()), Role.REFERENCES, Role.REFERENCES));
                } else {
                    references(c);
                }
            }
        }
    }

    /**
     * The statement without the {@code START TRANSACTION} of a CREATE TABLE, blanked so every
     * span stays where it was: the source logged its CREATE TABLE … SELECT as one transaction of
     * the table and its rows, which follow as row events. A MySQL server allows nothing but
     * BINLOG, COMMIT and ROLLBACK in a session after the option (the schema tracker's and the
     * writers' sessions go on), and other servers do not know it.
     */
    private String withoutStartTransaction(ParserRuleContext statement) {
        List<String> path = grammar.tableOptions();
        if (path == null) {
            return sql;
        }
        char[] out = null;
        for (ParserRuleContext o : below(statement, path)) {
            if (grammar.word(o.getStart().getType()).equals("START")
                    && grammar.word(o.getStop().getType()).equals("TRANSACTION")) {
                out = out == null ? sql.toCharArray() : out;
                for (int j = start(o); j < end(o); j++) {
                    out[j] = ' ';
                }
            }
        }
        return out == null ? sql : new String(out).stripTrailing();
    }

    /** An ALTER DATABASE "name" that is the first option word. */
    private boolean notAName(Ref r) {
        char c = sql.charAt(r.start());
        boolean quoted = c == '`' || c == '"';
        return !quoted && NOT_A_NAME.contains(r.name().schema().toUpperCase(Locale.ROOT));
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
