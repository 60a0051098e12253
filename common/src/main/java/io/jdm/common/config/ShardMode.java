package io.jdm.common.config;

/**
 * DM's {@code shard-mode}: how DDL of tables that routes merge into one target table (a shard
 * group) reaches that table. {@code NONE}: each shard's DDL is applied as it comes, repeats taken
 * as done. {@code PESSIMISTIC} (also DM's older {@code is-sharding: true}): a shard that reaches a
 * DDL waits until every shard of the group has reached the same DDL, which then runs once.
 * {@code OPTIMISTIC}: a shard's DDL runs on the target when it changes the shards' joined table (the
 * first shard to add a column, the last to drop one), else it is skipped.
 */
public enum ShardMode {
    NONE(""), PESSIMISTIC("pessimistic"), OPTIMISTIC("optimistic");

    private final String yamlName;

    ShardMode(String yamlName) {
        this.yamlName = yamlName;
    }

    public String yamlName() {
        return yamlName;
    }
}
