package io.jdm.common.config;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One rule of {@code filters:} (DM's binlog event filter). Without a table pattern it applies to
 * the whole schema, including schema-level statements.
 *
 * @param sqlPatterns regular expressions tried (case-insensitively) against DDL text
 */
public record FilterConfig(String name, String schemaPattern, Optional<String> tablePattern, List<EventType> events,
                           List<String> sqlPatterns, Action action) {
    public FilterConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(schemaPattern, "schemaPattern");
        Objects.requireNonNull(tablePattern, "tablePattern");
        events = List.copyOf(events);
        sqlPatterns = List.copyOf(sqlPatterns);
        Objects.requireNonNull(action, "action");
    }
}
