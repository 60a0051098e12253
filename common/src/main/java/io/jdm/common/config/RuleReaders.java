package io.jdm.common.config;

import io.jdm.common.config.BlockAllowListConfig.TableRule;
import io.jdm.common.expr.RowExpression;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** Entries of {@code block-allow-list:}, {@code routes:}, {@code filters:} and {@code expression-filter:}. */
final class RuleReaders {
    private static final Map<String, Action> ACTIONS = actions();
    /**
     * DM's event names (pkg/binlog-filter) that never type a statement of a MySQL or MariaDB
     * binlog: TiDB's own DDL, and ALTER DATABASE, which sync never applies to the target (it keeps
     * its own database defaults). A rule naming them is read, and those entries match nothing.
     */
    private static final List<String> NEVER_MET = List.of("", "alter database", "alter schema",
            "split table partition", "modify schema charset and collate", "modify table charset and collate",
            "recover table", "alter ttl info", "alter ttl remove", "multi schema change");

    private RuleReaders() {
    }

    static BlockAllowListConfig blockAllowList(String name, Section s) {
        var c = new BlockAllowListConfig(name,
                patterns(s, "do-dbs"),
                patterns(s, "ignore-dbs"),
                s.list("do-tables", (i, t) -> tableRule(t)),
                s.list("ignore-tables", (i, t) -> tableRule(t)));
        s.finish();
        return c;
    }

    static RouteConfig route(String name, Section s) {
        String schema = pattern(s, "schema-pattern");
        Optional<String> table = optionalPattern(s, "table-pattern");
        String targetSchema = s.requiredText("target-schema");
        Optional<String> targetTable = s.optionalText("target-table");
        List<RouteConfig.Extract> extracts = new ArrayList<>();
        for (RouteConfig.Part part : RouteConfig.Part.values()) {
            s.section(part.key()).ifPresent(e -> extract(e, part).ifPresent(extracts::add));
        }
        if (extracts.stream().map(e -> e.targetColumn().toLowerCase(Locale.ROOT)).distinct().count()
                < extracts.size()) {
            s.problem("extract-table, extract-schema and extract-source must name different target columns");
        }
        s.finish();
        return new RouteConfig(name, schema, table, targetSchema, targetTable, extracts);
    }

    /** {@code extract-table: {table-regexp, target-column}} and its schema and source siblings. */
    private static Optional<RouteConfig.Extract> extract(Section s, RouteConfig.Part part) {
        String regexp = s.requiredText(part.regexpKey());
        String column = s.requiredText("target-column");
        boolean ok = !regexp.isEmpty() && !column.isEmpty();
        if (!regexp.isEmpty()) {
            try {
                Pattern.compile(regexp);
            } catch (PatternSyntaxException e) {
                s.problem(part.regexpKey(), "invalid regular expression " + s.shown(part.regexpKey()) + ": "
                        + e.getDescription());
                ok = false;
            }
        }
        s.finish();
        return ok ? Optional.of(new RouteConfig.Extract(part, regexp, column)) : Optional.empty();
    }

    static FilterConfig filter(String name, Section s) {
        String schema = pattern(s, "schema-pattern");
        Optional<String> table = optionalPattern(s, "table-pattern");
        List<String> eventNames = s.texts("events");
        List<EventType> events = events(s, eventNames);
        List<String> sql = sqlPatterns(s);
        Action action = s.choice("action", null, ACTIONS);
        if (eventNames.isEmpty() && sql.isEmpty()) {
            s.problem("needs events or sql-pattern");
        }
        s.finish();
        return new FilterConfig(name, schema, table, events, sql, action == null ? Action.DO : action);
    }

    /** DM allows one kind of change per rule (insert, update with its two expressions, or delete). */
    static ExpressionFilterConfig expressionFilter(String name, Section s) {
        String schema = s.requiredText("schema");
        String table = s.requiredText("table");
        var insert = expression(s, "insert-value-expr");
        var updateOld = expression(s, "update-old-value-expr");
        var updateNew = expression(s, "update-new-value-expr");
        var delete = expression(s, "delete-value-expr");
        List<String> kinds = new ArrayList<>();
        if (s.optionalText("insert-value-expr").isPresent()) {
            kinds.add("insert-value-expr");
        }
        if (s.optionalText("update-old-value-expr").isPresent() || s.optionalText("update-new-value-expr").isPresent()) {
            kinds.add("update-old-value-expr/update-new-value-expr");
        }
        if (s.optionalText("delete-value-expr").isPresent()) {
            kinds.add("delete-value-expr");
        }
        if (kinds.size() > 1) {
            s.problem("has " + String.join(", ", kinds) + "; a rule filters one kind of change (as in DM): "
                    + "make one rule for each");
        } else if (kinds.isEmpty()) {
            s.problem("needs insert-value-expr, update-old-value-expr, update-new-value-expr or delete-value-expr");
        }
        s.finish();
        return new ExpressionFilterConfig(name, schema, table, insert, updateOld, updateNew, delete);
    }

    private static Optional<RowExpression> expression(Section s, String key) {
        Optional<String> text = s.optionalText(key).filter(t -> !t.isBlank());
        if (text.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(RowExpression.parse(text.get()));
        } catch (IllegalArgumentException e) {
            s.problem(key, e.getMessage() + " in " + s.shown(key));
            return Optional.empty();
        }
    }

    private static TableRule tableRule(Section s) {
        var r = new TableRule(pattern(s, "db-name"), pattern(s, "tbl-name"));
        s.finish();
        return r;
    }

    private static List<String> patterns(Section s, String key) {
        List<String> all = s.texts(key);
        for (int i = 0; i < all.size(); i++) {
            checkPattern(s, key, i, all.get(i));
        }
        return all;
    }

    private static String pattern(Section s, String key) {
        String p = s.requiredText(key);
        if (!p.isEmpty()) {
            checkPattern(s, key, -1, p);
        }
        return p;
    }

    private static Optional<String> optionalPattern(Section s, String key) {
        Optional<String> p = s.optionalText(key);
        p.ifPresent(v -> checkPattern(s, key, -1, v));
        return p;
    }

    /** {@code index} is the position in a list under {@code key}, or -1 for the key's own value. */
    private static void checkPattern(Section s, String key, int index, String pattern) {
        try {
            NamePattern.compile(pattern, true);
        } catch (IllegalArgumentException e) {
            s.problem(at(key, index), "invalid pattern " + s.shown(key, index) + ": " + e.getMessage());
        }
    }

    private static String at(String key, int index) {
        return index < 0 ? key : key + "[" + index + "]";
    }

    private static List<EventType> events(Section s, List<String> names) {
        List<EventType> out = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            Optional<EventType> t = EventType.fromYamlName(names.get(i));
            if (t.isPresent()) {
                out.add(t.get());
            } else if (NEVER_MET.contains(names.get(i).strip().toLowerCase(Locale.ROOT))) {
                s.warning(at("events", i), s.shown("events", i) + " never types a statement from a MySQL or "
                        + "MariaDB source (TiDB's own DDL, or ALTER DATABASE, which sync does not apply); this entry "
                        + "matches nothing (sql-pattern can match the statement)");
            } else {
                s.problem(at("events", i), "unknown event " + s.shown("events", i)
                        + Suggest.hint(names.get(i), EventType.yamlNames()));
            }
        }
        return out;
    }

    /** DM's sql-pattern: regular expressions tried against the DDL text, case-insensitively. */
    private static List<String> sqlPatterns(Section s) {
        List<String> all = s.texts("sql-pattern");
        for (int i = 0; i < all.size(); i++) {
            try {
                Pattern.compile(all.get(i));
            } catch (PatternSyntaxException e) {
                s.problem(at("sql-pattern", i), "invalid regular expression " + s.shown("sql-pattern", i) + ": "
                        + e.getDescription());
            }
        }
        return all;
    }

    private static Map<String, Action> actions() {
        Map<String, Action> m = new LinkedHashMap<>();
        for (Action a : Action.values()) {
            m.put(a.yamlName(), a);
        }
        return m;
    }
}
