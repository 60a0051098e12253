package io.jdm.common.filter;

import io.jdm.common.config.ConfigException;
import io.jdm.common.config.MySqlInstance;
import io.jdm.common.config.NamePattern;
import io.jdm.common.config.RouteConfig;
import io.jdm.common.config.TaskConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Renames tables on their way to the target, as DM's table router: a table-level rule (one with
 * a table-pattern) that matches wins; otherwise a schema-level rule renames the schema and keeps
 * the table name; otherwise the name is unchanged. Merging shards is several source tables
 * routed to one name. A name matched by two rules of the same level is a configuration error,
 * reported when that name is first seen because wildcards cannot be compared up front. The rule
 * that routes a table also gives its {@link ExtraColumns}: each extract's regular expression is
 * searched in the table name, schema name or source id, and the column's value is its capture
 * groups joined (DM's router: no match, or no group, gives the empty string).
 */
public final class TableRouter {
    private final List<Rule> tableRules;
    private final List<Rule> schemaRules;
    private final String sourceId;
    private final BoundedCache<RoutedName> cache = new BoundedCache<>();

    private record Rule(RouteConfig config, NamePattern schema, Optional<NamePattern> table,
                        List<Pattern> extracts) {
        boolean matches(String db, String tbl) {
            return schema.matches(db) && table.map(t -> t.matches(tbl)).orElse(true);
        }
    }

    private TableRouter(List<Rule> rules, String sourceId) {
        this.sourceId = sourceId;
        this.tableRules = rules.stream().filter(r -> r.table().isPresent()).toList();
        this.schemaRules = rules.stream().filter(r -> r.table().isEmpty()).toList();
    }

    /** @throws IllegalArgumentException if a pattern does not compile (a loaded task has none) */
    public static TableRouter of(List<RouteConfig> routes, boolean caseSensitive) {
        return of(routes, caseSensitive, "");
    }

    /** @param sourceId what {@code extract-source} reads: the source's {@code source-id} */
    public static TableRouter of(List<RouteConfig> routes, boolean caseSensitive, String sourceId) {
        return new TableRouter(routes.stream().map(r -> new Rule(r, NamePattern.compile(r.schemaPattern(),
                caseSensitive), r.tablePattern().map(p -> NamePattern.compile(p, caseSensitive)),
                r.extracts().stream().map(e -> Pattern.compile(e.regexp())).toList())).toList(), sourceId);
    }

    public static TableRouter forInstance(TaskConfig task, MySqlInstance instance) {
        return of(task.routes(instance), task.caseSensitive(), instance.sourceId());
    }

    /**
     * The target name of {@code db.table}; pass an empty (or null) table for a schema-level statement.
     *
     * @throws ConfigException when two rules of the same level match the name
     */
    public RoutedName route(String db, String table) {
        String tbl = table == null ? "" : table;
        return cache.get(db, tbl, k -> resolve(db, tbl));
    }

    private RoutedName resolve(String db, String table) {
        if (!table.isEmpty()) {
            Optional<Rule> byTable = only(tableRules, db, table);
            if (byTable.isPresent()) {
                return target(byTable.get(), db, table);
            }
        }
        return only(schemaRules, db, table).map(r -> target(r, db, table)).orElse(new RoutedName(db, table));
    }

    /** Keeps the source table name unless the rule names a target table, and always for schema statements. */
    private RoutedName target(Rule r, String db, String table) {
        String targetTable = table.isEmpty() ? table : r.config().targetTable().orElse(table);
        if (table.isEmpty() || r.extracts().isEmpty()) {
            return new RoutedName(r.config().targetSchema(), targetTable);
        }
        List<String> names = new ArrayList<>();
        List<String> values = new ArrayList<>();
        for (int i = 0; i < r.extracts().size(); i++) {
            RouteConfig.Extract e = r.config().extracts().get(i);
            String from = switch (e.part()) {
                case TABLE -> table;
                case SCHEMA -> db;
                case SOURCE -> sourceId;
            };
            names.add(e.targetColumn());
            values.add(groups(r.extracts().get(i), from));
        }
        return new RoutedName(r.config().targetSchema(), targetTable, new ExtraColumns(names, values));
    }

    /** The capture groups of the first match joined; empty when nothing matches or there is no group. */
    private static String groups(Pattern p, String s) {
        Matcher m = p.matcher(s);
        if (!m.find()) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        for (int g = 1; g <= m.groupCount(); g++) {
            if (m.group(g) != null) {
                sb.append(m.group(g));
            }
        }
        return sb.toString();
    }

    private static Optional<Rule> only(List<Rule> rules, String db, String table) {
        List<Rule> hits = rules.stream().filter(r -> r.matches(db, table)).toList();
        if (hits.size() > 1) {
            throw ConfigException.of("routes: `" + db + "`" + (table.isEmpty() ? "" : ".`" + table + "`")
                    + " matches more than one route rule ("
                    + hits.stream().map(r -> r.config().name()).collect(Collectors.joining(", "))
                    + "); make their patterns disjoint");
        }
        return hits.stream().findFirst();
    }
}
