package io.jdm.sync.reader;

import io.jdm.common.config.EventType;
import io.jdm.common.sql.SqlScanner;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.tree.ParseTree;
import org.antlr.v4.runtime.tree.TerminalNode;

/**
 * The clauses of one ALTER TABLE, each typed as DM's binlog filter types it ({@code drop column},
 * {@code rename index}, {@code modify storage engine} …, else {@code alter table}), so a filter
 * rule can skip one clause and keep the others. A clause is found by its rule in the grammar's
 * tree ({@link DdlGrammar#alterClauses()}) and typed by its leading keywords, read as both grammars
 * spell them ({@link DdlGrammar#word}): one reading for both grammars, whatever their rules'
 * labels. MODIFY and CHANGE are typed later, against the column as it was ({@link ColumnChanges}).
 */
final class AlterClauses {
    /** Table options that DM types, in the order it looks for them among a clause's options. */
    private static final Set<String> CHARSET = Set.of("CHARSET", "CHARACTER", "CHAR");
    /** Words after ADD that start an index or a constraint, not a column. */
    private static final Set<String> KEYS = Set.of("INDEX", "KEY", "UNIQUE", "FULLTEXT", "SPATIAL", "PRIMARY",
            "FOREIGN", "CONSTRAINT", "CHECK");
    /** Words after DROP that name something other than a column. */
    private static final Set<String> NOT_A_COLUMN = Set.of("CHECK", "CONSTRAINT", "SYSTEM", "PERIOD", "INDEX", "KEY",
            "PRIMARY", "FOREIGN", "PARTITION");

    /**
     * One clause of an ALTER TABLE: {@code sql.substring(start, end)}.
     *
     * @param event its type; null for a clause that only says how to run the statement (ALGORITHM,
     *              LOCK, validation): never filtered, and kept with whatever else is kept
     * @param column for MODIFY and CHANGE, the column's old and new names; else null
     */
    record Clause(int start, int end, EventType event, ColumnChange column) {
        boolean neutral() {
            return event == null;
        }
    }

    /** MODIFY (one name) or CHANGE (old and new), and whether it moves the column (FIRST / AFTER). */
    record ColumnChange(String from, String to, boolean moves) {
    }

    private final DdlGrammar grammar;
    private final String sql;
    private final SqlScanner scanner;
    private final int[] charAt;

    AlterClauses(DdlGrammar grammar, String sql, SqlScanner scanner, int[] charAt) {
        this.grammar = grammar;
        this.sql = sql;
        this.scanner = scanner;
        this.charAt = charAt;
    }

    /** The clauses under an ALTER TABLE statement's node, in text order. */
    List<Clause> read(ParserRuleContext statement) {
        List<ParserRuleContext> nodes = new ArrayList<>();
        collect(statement, nodes);
        List<Clause> out = new ArrayList<>();
        for (ParserRuleContext n : nodes) {
            List<TerminalNode> tokens = new ArrayList<>();
            terminals(n, tokens);
            if (!tokens.isEmpty()) {
                out.add(clause(n, tokens));
            }
        }
        return out;
    }

    private void collect(ParseTree node, List<ParserRuleContext> out) {
        for (int i = 0; i < node.getChildCount(); i++) {
            if (node.getChild(i) instanceof ParserRuleContext c) {
                if (grammar.alterClauses().contains(grammar.rule(c))) {
                    out.add(c);
                } else {
                    collect(c, out);
                }
            }
        }
    }

    private static void terminals(ParseTree node, List<TerminalNode> out) {
        for (int i = 0; i < node.getChildCount(); i++) {
            ParseTree c = node.getChild(i);
            if (c instanceof TerminalNode t) {
                if (t.getSymbol().getStartIndex() >= 0 && t.getSymbol().getType() >= 0) {
                    out.add(t);
                }
            } else {
                terminals(c, out);
            }
        }
    }

    private Clause clause(ParserRuleContext n, List<TerminalNode> tokens) {
        List<String> w = tokens.stream().map(t -> grammar.word(t.getSymbol().getType())).toList();
        int start = charAt[n.getStart().getStartIndex()];
        int end = charAt[n.getStop().getStopIndex() + 1];
        String first = w.get(0);
        String second = w.size() > 1 ? w.get(1) : "";
        return switch (first) {
            case "ADD" -> new Clause(start, end, added(w), null);
            case "DROP" -> new Clause(start, end, dropped(second), null);
            case "MODIFY", "CHANGE" -> new Clause(start, end, EventType.MODIFY_COLUMN,
                    columnChange(first.equals("CHANGE"), w, tokens));
            case "RENAME" -> new Clause(start, end, switch (second) {
                case "COLUMN" -> EventType.RENAME_COLUMN;
                case "INDEX", "KEY" -> EventType.RENAME_INDEX;
                default -> EventType.RENAME_TABLE;
            }, null);
            case "ALTER" -> new Clause(start, end, altered(w), null);
            case "TRUNCATE" -> new Clause(start, end, EventType.TRUNCATE_TABLE_PARTITION, null);
            case "REORGANIZE" -> new Clause(start, end, EventType.REORGANIZE_TABLE_PARTITION, null);
            case "REBUILD" -> new Clause(start, end, EventType.REBUILD_TABLE_PARTITION, null);
            case "COALESCE" -> new Clause(start, end, EventType.COALESCE_TABLE_PARTITION, null);
            case "EXCHANGE" -> new Clause(start, end, EventType.EXCHANGE_TABLE_PARTITION, null);
            case "REMOVE" -> new Clause(start, end, EventType.REMOVE_TABLE_PARTITIONING, null);
            case "PARTITION" -> new Clause(start, end, EventType.ALTER_TABLE_PARTITIONING, null);
            case "CONVERT" -> new Clause(start, end, EventType.MODIFY_CHARSET, null);
            case "ALGORITHM", "LOCK", "WITH", "WITHOUT" -> new Clause(start, end, null, null);
            default -> new Clause(start, end, options(w), null);
        };
    }

    private static EventType added(List<String> w) {
        String what = w.size() > 1 ? w.get(1) : "";
        if (what.equals("CONSTRAINT")) { // ADD CONSTRAINT [name] PRIMARY KEY | UNIQUE | FOREIGN KEY | CHECK
            what = w.stream().skip(2).filter(KEYS::contains).findFirst().orElse("CHECK");
        }
        return switch (what) {
            case "PRIMARY" -> EventType.ADD_PRIMARY_KEY;
            case "FOREIGN" -> EventType.ADD_FOREIGN_KEY;
            case "INDEX", "KEY", "UNIQUE", "FULLTEXT", "SPATIAL", "CHECK" -> EventType.MODIFY_CONSTRAINT;
            case "PARTITION" -> EventType.ADD_TABLE_PARTITION;
            case "PERIOD", "SYSTEM" -> EventType.ALTER_TABLE;
            default -> EventType.ADD_COLUMN; // ADD [COLUMN] [IF NOT EXISTS] c …, ADD (c …, d …)
        };
    }

    private static EventType dropped(String what) {
        return switch (what) {
            case "INDEX", "KEY" -> EventType.DROP_INDEX;
            case "PRIMARY" -> EventType.DROP_PRIMARY_KEY;
            case "FOREIGN" -> EventType.DROP_FOREIGN_KEY;
            case "PARTITION" -> EventType.DROP_TABLE_PARTITION;
            default -> NOT_A_COLUMN.contains(what) ? EventType.ALTER_TABLE : EventType.DROP_COLUMN;
        };
    }

    /** ALTER [COLUMN] c SET DEFAULT … / DROP DEFAULT, ALTER INDEX i [IN]VISIBLE, ALTER CHECK …. */
    private static EventType altered(List<String> w) {
        String what = w.size() > 1 ? w.get(1) : "";
        if (what.equals("INDEX") || what.equals("KEY")) {
            return EventType.ALTER_INDEX_VISIBILITY;
        }
        if (what.equals("CHECK") || what.equals("CONSTRAINT")) {
            return EventType.ALTER_TABLE;
        }
        return w.contains("DEFAULT") ? EventType.SET_DEFAULT_VALUE : EventType.ALTER_TABLE;
    }

    /** Table options: the first of charset, collation and engine, as DM looks at them; a few more after. */
    private static EventType options(List<String> w) {
        for (int i = 0; i < w.size(); i++) {
            String o = w.get(i);
            if (o.equals("ENGINE")) {
                return EventType.MODIFY_STORAGE_ENGINE;
            }
            if (o.equals("COLLATE")) {
                return EventType.MODIFY_COLLATION;
            }
            if (o.equals("CHARSET") || CHARSET.contains(o) && i + 1 < w.size() && w.get(i + 1).equals("SET")) {
                return EventType.MODIFY_CHARSET;
            }
        }
        if (w.contains("COMMENT")) {
            return EventType.MODIFY_TABLE_COMMENT;
        }
        if (w.contains("AUTO_INCREMENT")) {
            return EventType.REBASE_AUTO_ID;
        }
        return EventType.ALTER_TABLE;
    }

    /** MODIFY [COLUMN] [IF EXISTS] c def, CHANGE [COLUMN] [IF EXISTS] old new def. */
    private ColumnChange columnChange(boolean change, List<String> w, List<TerminalNode> tokens) {
        int i = 1;
        if (i < w.size() && w.get(i).equals("COLUMN")) {
            i++;
        }
        if (i + 1 < w.size() && w.get(i).equals("IF") && w.get(i + 1).equals("EXISTS")) {
            i += 2;
        }
        if (i >= tokens.size() || (change && i + 1 >= tokens.size())) {
            return null;
        }
        String from = name(tokens.get(i));
        String to = change ? name(tokens.get(i + 1)) : from;
        boolean moves = w.subList(i, w.size()).contains("FIRST") || w.subList(i, w.size()).contains("AFTER");
        return from == null || to == null ? null : new ColumnChange(from, to, moves);
    }

    private String name(TerminalNode t) {
        int s = charAt[t.getSymbol().getStartIndex()];
        int e = charAt[t.getSymbol().getStopIndex() + 1];
        List<String> parts = scanner.identifiers(sql, s, e);
        return parts == null || parts.isEmpty() ? null : parts.get(parts.size() - 1);
    }
}
