package io.jdm.cli.check;

import io.jdm.common.config.Consistency;
import io.jdm.common.config.ShardMode;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.sql.TableName;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.UnaryOperator;

/**
 * What a precheck needs from a task.
 *
 * @param needsDump the task dumps (task-mode full or all)
 * @param needsBinlog the task replicates (task-mode incremental or all)
 * @param ignore check items to skip ({@code ignore-checking-items}; {@code all} skips everything)
 * @param shardMode the task's shard-mode: whether merged shards' tables must be alike or joinable
 * @param task the task's name, which names its checkpoints in {@code metaSchema}; null where no source loads
 */
public record PrecheckInput(boolean needsDump, boolean needsBinlog, List<Source> sources, ConnectionSpec target,
                            String metaSchema, Set<String> ignore, ShardMode shardMode, String task) {

    public PrecheckInput(boolean needsDump, boolean needsBinlog, List<Source> sources, ConnectionSpec target,
                         String metaSchema, Set<String> ignore, ShardMode shardMode) {
        this(needsDump, needsBinlog, sources, target, metaSchema, ignore, shardMode, null);
    }

    public PrecheckInput(boolean needsDump, boolean needsBinlog, List<Source> sources, ConnectionSpec target,
                         String metaSchema, Set<String> ignore) {
        this(needsDump, needsBinlog, sources, target, metaSchema, ignore, ShardMode.NONE);
    }

    /**
     * One source instance with the tables its block-allow-list selects.
     *
     * @param sourceConnections connections the task opens on this source at once (dump threads, binlog stream)
     * @param targetConnections connections this source's units open on the target at once (load pool, writers)
     * @param consistency how the dump reads the source ({@code mydumpers.*.consistency}): which privileges and
     *                    keys it needs
     * @param router the target table the task's routes give a source table
     * @param loadDir the directory the task's load reads ({@code loaders.dir}, per source); null when the task
     *                does not load
     */
    public record Source(String id, ConnectionSpec spec, BiPredicate<String, String> tableFilter,
                         boolean enableGtid, int sourceConnections, int targetConnections, Consistency consistency,
                         UnaryOperator<TableName> router, Path loadDir) {
        public Source {
            router = router == null ? UnaryOperator.identity() : router;
        }

        public Source(String id, ConnectionSpec spec, BiPredicate<String, String> tableFilter, boolean enableGtid,
                      int sourceConnections, int targetConnections, Consistency consistency,
                      UnaryOperator<TableName> router) {
            this(id, spec, tableFilter, enableGtid, sourceConnections, targetConnections, consistency, router, null);
        }

        public Source(String id, ConnectionSpec spec, BiPredicate<String, String> tableFilter, boolean enableGtid,
                      int sourceConnections, int targetConnections, Consistency consistency) {
            this(id, spec, tableFilter, enableGtid, sourceConnections, targetConnections, consistency, null);
        }

        public Source(String id, ConnectionSpec spec, BiPredicate<String, String> tableFilter, boolean enableGtid,
                      int sourceConnections, int targetConnections) {
            this(id, spec, tableFilter, enableGtid, sourceConnections, targetConnections, Consistency.AUTO);
        }
    }
}
