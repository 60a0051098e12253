package io.jdm.common.filter;

import io.jdm.common.config.BlockAllowListConfig;
import io.jdm.common.config.BlockAllowListConfig.TableRule;
import io.jdm.common.config.MySqlInstance;
import io.jdm.common.config.NamePattern;
import io.jdm.common.config.TaskConfig;
import io.jdm.common.schema.SchemaScope;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A block-allow-list rule set, evaluated like MySQL's replication filters and DM:
 *
 * <ol>
 *   <li>Schema: if do-dbs is set the schema must match one of them (ignore-dbs is then not looked
 *       at); otherwise it must match none of ignore-dbs.</li>
 *   <li>Table: a match in do-tables keeps it; else a match in ignore-tables drops it; else it is
 *       kept only when do-tables is empty.</li>
 * </ol>
 *
 * System schemas (mysql, information_schema, performance_schema, sys) and the task's meta-schema
 * are always excluded, whatever the rules say.
 */
public final class TableFilter implements SchemaScope {
    private static final Set<String> SYSTEM_SCHEMAS = Set.of("mysql", "information_schema",
            "performance_schema", "sys");

    private final List<NamePattern> doDbs;
    private final List<NamePattern> ignoreDbs;
    private final List<TablePattern> doTables;
    private final List<TablePattern> ignoreTables;
    private final String metaSchema;
    private final BoundedCache<Boolean> cache = new BoundedCache<>();

    private record TablePattern(NamePattern db, NamePattern table) {
        boolean matches(String db, String table) {
            return this.db.matches(db) && this.table.matches(table);
        }
    }

    private TableFilter(BlockAllowListConfig rules, boolean caseSensitive, String metaSchema) {
        this.doDbs = compile(rules.doDbs(), caseSensitive);
        this.ignoreDbs = compile(rules.ignoreDbs(), caseSensitive);
        this.doTables = compileTables(rules.doTables(), caseSensitive);
        this.ignoreTables = compileTables(rules.ignoreTables(), caseSensitive);
        this.metaSchema = metaSchema.toLowerCase(Locale.ROOT);
    }

    /**
     * @param metaSchema the task's meta-schema, excluded like the system schemas
     * @throws IllegalArgumentException if a pattern does not compile (a loaded task has none)
     */
    public static TableFilter of(BlockAllowListConfig rules, boolean caseSensitive, String metaSchema) {
        return new TableFilter(rules, caseSensitive, metaSchema);
    }

    /** The filter of one instance of a task: its rule set, or everything but the system schemas. */
    public static TableFilter forInstance(TaskConfig task, MySqlInstance instance) {
        return of(task.blockAllowList(instance).orElse(BlockAllowListConfig.allowAll()), task.caseSensitive(),
                task.metaSchema());
    }

    /** {@link #matchTable}: a filter is the selection a listing of the source's tables applies. */
    @Override
    public boolean test(String db, String table) {
        return matchTable(db, table);
    }

    /** {@link #mayMatchTablesIn}. */
    @Override
    public boolean mayHoldSelected(String schema) {
        return mayMatchTablesIn(schema);
    }

    /** Whether statements about the schema itself (CREATE/DROP DATABASE) are kept: schema rules only. */
    public boolean matchSchema(String db) {
        return !isSystem(db) && schemaAllowed(db);
    }

    /** Whether the table is kept. An empty table name asks about the schema ({@link #matchSchema}). */
    public boolean matchTable(String db, String table) {
        if (table == null || table.isEmpty()) {
            return matchSchema(db);
        }
        return cache.get(db, table, k -> !isSystem(db) && schemaAllowed(db) && tableAllowed(db, table));
    }

    /**
     * Whether any table of the schema could be kept: {@link #matchSchema} plus, when do-tables is
     * set, some do-tables entry naming this schema. Dump uses it to skip schemas whose tables are
     * all excluded instead of creating them empty in the target.
     */
    public boolean mayMatchTablesIn(String db) {
        return matchSchema(db) && (doTables.isEmpty() || doTables.stream().anyMatch(t -> t.db().matches(db)));
    }

    private boolean isSystem(String db) {
        String lower = db.toLowerCase(Locale.ROOT);
        return SYSTEM_SCHEMAS.contains(lower) || lower.equals(metaSchema);
    }

    private boolean schemaAllowed(String db) {
        if (!doDbs.isEmpty()) {
            return doDbs.stream().anyMatch(p -> p.matches(db));
        }
        return ignoreDbs.stream().noneMatch(p -> p.matches(db));
    }

    private boolean tableAllowed(String db, String table) {
        if (doTables.stream().anyMatch(t -> t.matches(db, table))) {
            return true;
        }
        if (ignoreTables.stream().anyMatch(t -> t.matches(db, table))) {
            return false;
        }
        return doTables.isEmpty();
    }

    private static List<NamePattern> compile(List<String> patterns, boolean caseSensitive) {
        return patterns.stream().map(p -> NamePattern.compile(p, caseSensitive)).toList();
    }

    private static List<TablePattern> compileTables(List<TableRule> rules, boolean caseSensitive) {
        return rules.stream().map(r -> new TablePattern(NamePattern.compile(r.dbName(), caseSensitive),
                NamePattern.compile(r.tblName(), caseSensitive))).toList();
    }
}
