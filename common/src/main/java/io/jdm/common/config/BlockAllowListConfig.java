package io.jdm.common.config;

import java.util.List;
import java.util.Objects;

/**
 * One rule set of {@code block-allow-list:}, read like MySQL's replicate-do/ignore-db and
 * replicate-do/ignore-table options. Patterns starting with {@code ~} are regular expressions,
 * others are wildcards ({@code *}, {@code ?}, {@code [...]}).
 */
public record BlockAllowListConfig(String name, List<String> doDbs, List<String> ignoreDbs,
                                   List<TableRule> doTables, List<TableRule> ignoreTables) {
    /** A {@code {db-name, tbl-name}} pair of do-tables / ignore-tables. */
    public record TableRule(String dbName, String tblName) {
        public TableRule {
            Objects.requireNonNull(dbName, "dbName");
            Objects.requireNonNull(tblName, "tblName");
        }
    }

    public BlockAllowListConfig {
        Objects.requireNonNull(name, "name");
        doDbs = List.copyOf(doDbs);
        ignoreDbs = List.copyOf(ignoreDbs);
        doTables = List.copyOf(doTables);
        ignoreTables = List.copyOf(ignoreTables);
    }

    /** A rule set that keeps every table (system schemas are still excluded by the filter). */
    public static BlockAllowListConfig allowAll() {
        return new BlockAllowListConfig("", List.of(), List.of(), List.of(), List.of());
    }
}
