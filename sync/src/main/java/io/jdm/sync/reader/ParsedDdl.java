package io.jdm.sync.reader;

import io.jdm.common.config.EventType;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.SqlDialect;
import io.jdm.common.sql.SqlScanner;
import io.jdm.common.sql.TableName;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * A DDL statement with the place of every table (or database) name in its text, so it can be
 * rewritten for another name mapping (routes to the target, the schema tracker's scratch copies,
 * a gh-ost ghost table to its real table) by splicing, leaving the rest of the text untouched.
 *
 * @param kind the DDL kind, as filter rules name it
 * @param refs the names in the statement, in text order
 * @param dialect how the source read the statement's text
 * @param grammar the source's grammar, for the statements made from this one
 * @param clauses an ALTER TABLE's clauses, in text order; empty for other statements
 */
record ParsedDdl(EventType kind, String sql, List<Ref> refs, SqlDialect dialect, DdlGrammar grammar,
                 List<AlterClauses.Clause> clauses) {

    /** What a name is in the statement. */
    enum Role {
        /** The table the statement acts on (every table of a DROP, the old name of a RENAME pair). */
        TABLE,
        /** The new name of RENAME TABLE a TO b or ALTER TABLE … RENAME TO b. */
        TO,
        /** CREATE TABLE … LIKE this. */
        LIKE,
        /** A foreign key's referenced table. */
        REFERENCES,
        /** The database of CREATE/DROP DATABASE (the name's table part is empty). */
        DATABASE
    }

    /** One name and where it is: {@code sql.substring(start, end)}. */
    record Ref(TableName name, int start, int end, Role role) {
    }

    ParsedDdl {
        refs = List.copyOf(refs);
        clauses = List.copyOf(clauses);
    }

    /** The table (or database) the statement acts on: the first TABLE or DATABASE name. */
    TableName primary() {
        return refs.stream().filter(r -> r.role == Role.TABLE || r.role == Role.DATABASE).map(Ref::name)
                .findFirst().orElseThrow();
    }

    /** The new name of a rename, if this is one. */
    TableName renamedTo() {
        return refs.stream().filter(r -> r.role == Role.TO).map(Ref::name).findFirst().orElse(null);
    }

    /** Tables whose definition the statement changes: what it acts on and what it renames to. */
    List<TableName> touched() {
        return refs.stream().filter(r -> r.role == Role.TABLE || r.role == Role.TO).map(Ref::name).toList();
    }

    boolean isDatabase() {
        return kind == EventType.CREATE_DATABASE || kind == EventType.DROP_DATABASE;
    }

    /** The statement with every name mapped (database names through the schema of {@code f(db, "")}). */
    String rewrite(UnaryOperator<TableName> f) {
        return rewrite(f, r -> true);
    }

    /** The statement with the names {@code which} accepts mapped, and the others as written. */
    String rewrite(UnaryOperator<TableName> f, java.util.function.Predicate<Ref> which) {
        StringBuilder sb = new StringBuilder(sql.length() + 32);
        int at = 0;
        for (Ref r : refs.stream().sorted(Comparator.comparingInt(Ref::start)).toList()) {
            sb.append(sql, at, r.start);
            if (which.test(r)) {
                TableName to = f.apply(r.name);
                sb.append(r.role == Role.DATABASE ? Identifiers.quote(to.schema()) : to.quoted());
            } else {
                sb.append(sql, r.start, r.end);
            }
            at = r.end;
        }
        return sb.append(sql, at, sql.length()).toString();
    }

    /** True when a CREATE TABLE / DATABASE already says IF NOT EXISTS. */
    boolean saysIfNotExists() {
        return endsWith(wordsBeforeName(), "IF", "NOT", "EXISTS");
    }

    /** True when a DROP already says IF EXISTS. */
    boolean saysIfExists() {
        return endsWith(wordsBeforeName(), "IF", "EXISTS");
    }

    /**
     * The words before the first name: only keywords stand there (CREATE OR REPLACE TABLE IF NOT
     * EXISTS), once comments are blanked and conditional comments opened.
     */
    private List<String> wordsBeforeName() {
        Ref first = refs.stream().filter(r -> r.role == Role.TABLE || r.role == Role.DATABASE).findFirst()
                .orElseThrow();
        String head = new SqlScanner(dialect).normalize(sql).substring(0, first.start).strip();
        return head.isEmpty() ? List.of() : Arrays.asList(head.toUpperCase(Locale.ROOT).split("\\s+"));
    }

    private static boolean endsWith(List<String> words, String... tail) {
        int from = words.size() - tail.length;
        return from >= 0 && words.subList(from, words.size()).equals(List.of(tail));
    }

    /** This CREATE with IF NOT EXISTS added before its name (the spans after it moved along). */
    ParsedDdl withIfNotExists() {
        if (saysIfNotExists()) {
            return this;
        }
        Ref first = refs.stream().filter(r -> r.role == Role.TABLE || r.role == Role.DATABASE).findFirst()
                .orElseThrow();
        String insert = "IF NOT EXISTS ";
        String s = sql.substring(0, first.start) + insert + sql.substring(first.start);
        int n = insert.length();
        return new ParsedDdl(kind, s, refs.stream().map(r -> r.start < first.start ? r
                : new Ref(r.name, r.start + n, r.end + n, r.role)).toList(), dialect, grammar, List.of());
    }

    /**
     * One statement per table: DROP TABLE a, b and RENAME TABLE a TO b, c TO d are split (in
     * order, which keeps a chain of renames right), so filters, routes and online DDL decide per
     * table, as DM does. Anything else is returned as it is.
     */
    List<ParsedDdl> split() {
        long tables = refs.stream().filter(r -> r.role == Role.TABLE).count();
        if (tables < 2 || (kind != EventType.DROP_TABLE && kind != EventType.RENAME_TABLE)) {
            return List.of(this);
        }
        List<ParsedDdl> out = new ArrayList<>();
        if (kind == EventType.DROP_TABLE) {
            boolean ifExists = saysIfExists();
            for (Ref r : refs) {
                out.add(DdlParser.parse("", "DROP TABLE " + (ifExists ? "IF EXISTS " : "") + r.name.quoted(),
                        SqlDialect.DEFAULT, grammar));
            }
        } else {
            for (int i = 0; i + 1 < refs.size(); i += 2) {
                out.add(DdlParser.parse("", "RENAME TABLE " + refs.get(i).name.quoted() + " TO "
                        + refs.get(i + 1).name.quoted(), SqlDialect.DEFAULT, grammar));
            }
        }
        return out;
    }
}
