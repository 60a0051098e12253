package io.jdm.common.filter;

import io.jdm.common.config.ConfigException;
import io.jdm.common.config.MySqlInstance;
import io.jdm.common.config.NamePattern;
import io.jdm.common.config.RouteConfig;
import io.jdm.common.config.TaskConfig;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Renames tables on their way to the target, as DM's table router: a table-level rule (one with
 * a table-pattern) that matches wins; otherwise a schema-level rule renames the schema and keeps
 * the table name; otherwise the name is unchanged. Merging shards is several source tables
 * routed to one name. A name matched by two rules of the same level is a configuration error,
 * reported when that name is first seen because wildcards cannot be compared up front.
 */
public final class TableRouter {
    private final List<Rule> tableRules;
    private final List<Rule> schemaRules;
    private final BoundedCache<RoutedName> cache = new BoundedCache<>();

    private record Rule(RouteConfig config, NamePattern schema, Optional<NamePattern> table) {
        boolean matches(String db, String tbl) {
            return schema.matches(db) && table.map(t -> t.matches(tbl)).orElse(true);
        }
    }

    private TableRouter(List<Rule> rules) {
        this.tableRules = rules.stream().filter(r -> r.table().isPresent()).toList();
        this.schemaRules = rules.stream().filter(r -> r.table().isEmpty()).toList();
    }

    /** @throws IllegalArgumentException if a pattern does not compile (a loaded task has none) */
    public static TableRouter of(List<RouteConfig> routes, boolean caseSensitive) {
        return new TableRouter(routes.stream().map(r -> new Rule(r, NamePattern.compile(r.schemaPattern(),
                caseSensitive), r.tablePattern().map(p -> NamePattern.compile(p, caseSensitive)))).toList());
    }

    public static TableRouter forInstance(TaskConfig task, MySqlInstance instance) {
        return of(task.routes(instance), task.caseSensitive());
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
                return target(byTable.get(), table);
            }
        }
        return only(schemaRules, db, table).map(r -> target(r, table)).orElse(new RoutedName(db, table));
    }

    /** Keeps the source table name unless the rule names a target table, and always for schema statements. */
    private static RoutedName target(Rule r, String table) {
        String targetTable = table.isEmpty() ? table : r.config().targetTable().orElse(table);
        return new RoutedName(r.config().targetSchema(), targetTable);
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
