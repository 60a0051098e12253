package io.jdm.common.filter;

import io.jdm.common.config.Action;
import io.jdm.common.config.EventType;
import io.jdm.common.config.FilterConfig;
import io.jdm.common.config.MySqlInstance;
import io.jdm.common.config.NamePattern;
import io.jdm.common.config.TaskConfig;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * DM's binlog event filter. The rules that apply to an event are those whose schema-pattern
 * matches its schema and whose table-pattern (if any) matches its table; a rule without a
 * table-pattern also applies to schema-level statements. A rule is hit when its {@code events}
 * cover the event's type or, for DDL, one of its {@code sql-pattern}s is found in the statement.
 *
 * <p>The decision, in order: any Ignore rule hit → {@link Action#IGNORE}; any Error rule hit →
 * {@link Action#ERROR}; some Do rules apply but none is hit → {@link Action#IGNORE} (Do rules are
 * an allow-list for what they match); otherwise {@link Action#DO}. Ignore wins over Error so that
 * a narrow "ignore this" can carve an exception out of a broad "stop on that".
 */
public final class EventFilter {
    private final List<Rule> rules;
    private final BoundedCache<List<Rule>> applicable = new BoundedCache<>();

    private record Rule(FilterConfig config, NamePattern schema, Optional<NamePattern> table,
                        Optional<Pattern> sql) {
        boolean appliesTo(String db, String tbl) {
            return schema.matches(db) && table.map(t -> t.matches(tbl)).orElse(true);
        }

        boolean hit(EventType event, String statement) {
            if (config.events().stream().anyMatch(e -> e.covers(event))) {
                return true;
            }
            return event.isDdl() && statement != null && sql.map(p -> p.matcher(statement).find()).orElse(false);
        }
    }

    private EventFilter(List<Rule> rules) {
        this.rules = rules;
    }

    /** @throws IllegalArgumentException if a pattern does not compile (a loaded task has none) */
    public static EventFilter of(List<FilterConfig> filters, boolean caseSensitive) {
        return new EventFilter(filters.stream().map(f -> rule(f, caseSensitive)).toList());
    }

    public static EventFilter forInstance(TaskConfig task, MySqlInstance instance) {
        return of(task.filters(instance), task.caseSensitive());
    }

    /**
     * @param table empty or null for schema-level statements
     * @param event the event's own type, not a set such as {@link EventType#ALL_DML}
     * @param sql the statement text for DDL; ignored for DML and may be null
     */
    public Action decide(String db, String table, EventType event, String sql) {
        if (!event.isConcrete()) {
            throw new IllegalArgumentException(event.yamlName() + " is a set of events, not an event type");
        }
        String tbl = table == null ? "" : table;
        List<Rule> rulesHere = applicable.get(db, tbl, k -> rules.stream().filter(r -> r.appliesTo(db, tbl)).toList());
        if (anyHit(rulesHere, Action.IGNORE, event, sql)) {
            return Action.IGNORE;
        }
        if (anyHit(rulesHere, Action.ERROR, event, sql)) {
            return Action.ERROR;
        }
        boolean allowList = rulesHere.stream().anyMatch(r -> r.config().action() == Action.DO);
        if (allowList && !anyHit(rulesHere, Action.DO, event, sql)) {
            return Action.IGNORE;
        }
        return Action.DO;
    }

    private static boolean anyHit(List<Rule> rules, Action action, EventType event, String sql) {
        return rules.stream().anyMatch(r -> r.config().action() == action && r.hit(event, sql));
    }

    private static Rule rule(FilterConfig f, boolean caseSensitive) {
        Optional<Pattern> sql = f.sqlPatterns().isEmpty() ? Optional.empty()
                : Optional.of(Pattern.compile(f.sqlPatterns().stream().map(p -> "(?:" + p + ")")
                        .collect(Collectors.joining("|")), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE));
        return new Rule(f, NamePattern.compile(f.schemaPattern(), caseSensitive),
                f.tablePattern().map(p -> NamePattern.compile(p, caseSensitive)), sql);
    }
}
