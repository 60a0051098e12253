package io.jdm.cli.run;

import io.jdm.common.config.BinlogMeta;
import io.jdm.common.config.Consistency;
import io.jdm.common.config.LoaderConfig;
import io.jdm.common.config.MySqlInstance;
import io.jdm.common.config.ShardMode;
import io.jdm.common.config.TaskConfig;
import io.jdm.common.dumpdir.ChunkJournal;
import io.jdm.common.dumpdir.ChunkPlan;
import io.jdm.common.dumpdir.DumpMetadata;
import io.jdm.common.error.FatalException;
import io.jdm.common.filter.EventFilter;
import io.jdm.common.filter.ExtraColumns;
import io.jdm.common.filter.ExpressionFilter;
import io.jdm.common.filter.RoutedName;
import io.jdm.common.filter.TableFilter;
import io.jdm.common.filter.TableRouter;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.schema.TableSchema;
import io.jdm.common.sql.TableName;
import io.jdm.verify.TablePair;
import io.jdm.verify.VerifyConfig;
import io.jdm.dump.DumpConfig;
import io.jdm.load.LoadConfig;
import io.jdm.sync.SyncConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Maps a validated task file onto each unit's own config record (the units never see TaskConfig):
 * a unit's config takes its {@code mydumpers:}/{@code loaders:}/{@code syncers:} entry whole
 * ({@link DumpConfig#of}, {@link LoadConfig#withLoader}, {@link SyncConfig.Builder#syncer}); what
 * is added here is what spans the task: filters (expression filters too: the dump keeps, and verify
 * compares, only the rows the sync would insert), routes, positions, server id, meta schema.
 */
public final class UnitConfigs {

    private UnitConfigs() {
    }

    public static DumpConfig dump(TaskConfig task, MySqlInstance instance) {
        TableFilter filter = TableFilter.forInstance(task, instance);
        return DumpConfig.of(task.name(), instance.sourceId(), instance.from().toConnectionSpec(),
                task.mydumper(instance)).withTableFilter(filter)
                .withTableWhere(copiedRows(task, instance));
    }

    /**
     * A source table's condition for the rows the task copies, null for all: none of its
     * expression-filter insert rules is TRUE on them. The dump reads only these rows and verify
     * compares only these, so the two agree on every row.
     */
    static Function<TableSchema, String> copiedRows(TaskConfig task, MySqlInstance instance) {
        ExpressionFilter rows = ExpressionFilter.forInstance(task, instance);
        if (rows.isEmpty()) {
            return t -> null;
        }
        return t -> rows.dumpCondition(t.name().schema(), t.name().table(), t.columns()).orElse(null);
    }

    /**
     * The load of a task that dumps as well (full, all) knows the source its dump came from: it asks
     * it for its sql_mode where the dump did not record it; any other task's dump may come from
     * elsewhere.
     */
    public static LoadConfig load(TaskConfig task, MySqlInstance instance) {
        LoaderConfig l = task.loader(instance);
        TableFilter filter = TableFilter.forInstance(task, instance);
        return LoadConfig.of(task.name(), instance.sourceId(), task.targetDatabase().toConnectionSpec(),
                        l.dir().orElseThrow())
                .withLoader(l)
                .withMetaSchema(task.metaSchema())
                .withTableFilter(filter::matchTable)
                .withRouter(router(task, instance))
                .withSourceRouters(id -> task.mysqlInstances().stream().filter(i -> i.sourceId().equals(id))
                        .findFirst().map(i -> router(task, i)).orElse(null))
                .withExtraColumns(extraColumns(task, instance))
                .withSource(task.taskMode().dumpsAndLoads() ? instance.from().toConnectionSpec() : null);
    }

    /**
     * The server id is the task's, or one picked for this process (see {@link ServerIds}).
     *
     * @param start where to start when the sync has no checkpoint yet (null: the task's meta, if any)
     */
    public static SyncConfig sync(TaskConfig task, MySqlInstance instance, BinlogPosition start) {
        return syncBuilder(task, instance, start).build();
    }

    /** As {@link #sync}, to be changed before it is built (a start time's position and safe mode). */
    static SyncConfig.Builder syncBuilder(TaskConfig task, MySqlInstance instance, BinlogPosition start) {
        TableFilter filter = TableFilter.forInstance(task, instance);
        return SyncConfig.builder(task.name(), instance.from().toConnectionSpec(),
                        task.targetDatabase().toConnectionSpec())
                .sourceId(instance.sourceId())
                .serverId(instance.serverId()
                        .orElseGet(() -> ServerIds.pick(instance.from().toConnectionSpec())))
                .start(start != null ? start : instance.meta().map(UnitConfigs::position).orElse(null))
                .syncer(task.syncer(instance))
                .metaSchema(task.metaSchema())
                .tableFilter(filter::matchTable)
                .router(router(task, instance))
                .extraColumns(extraColumns(task, instance))
                .eventFilter(EventFilter.forInstance(task, instance)::decide)
                .rowFilter(ExpressionFilter.forInstance(task, instance))
                .validator(instance.validator())
                .onlineDdl(task.onlineDdl())
                .safeModeUntil(task.taskMode().dumps() ? lockFreeHigh(task, instance) : null)
                .startExact(start != null && consistentDumpAt(task, instance, start))
                .shardSources(task.shardMode() != ShardMode.NONE
                        ? task.mysqlInstances().stream().map(MySqlInstance::sourceId).toList() : List.of())
                .shardOptimistic(task.shardMode() == ShardMode.OPTIMISTIC);
    }


    /**
     * True when {@code start} is the position in the metadata of the source's dump directory and
     * that dump held a consistent snapshot (jdm's {@code Consistency:} line; a lock-free dump's
     * overlap is covered by {@code safeModeUntil}). Anything else (no metadata, another tool's dump,
     * {@code consistency: none}) is not known exact, and the sync starts with safe-mode-duration.
     */
    static boolean consistentDumpAt(TaskConfig task, MySqlInstance instance, BinlogPosition start) {
        try {
            return DumpMetadata.readFrom(task.mydumper(instance).dir())
                    .filter(m -> m.consistencyMode().map(Consistency::exactPosition).orElse(false))
                    .map(DumpMetadata::position)
                    .filter(p -> p.file().equals(start.file()) && p.pos() == start.pos())
                    .isPresent();
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * The highest HIGH of the lock-free dump in the source's dump directory: the sync replays in safe
     * mode until its stream passes it. Null when the dump is not lock-free (or not there).
     */
    static BinlogPosition lockFreeHigh(TaskConfig task, MySqlInstance instance) {
        Path dir = task.mydumper(instance).dir();
        if (!ChunkPlan.existsIn(dir)) {
            return null;
        }
        try {
            return ChunkJournal.highest(ChunkJournal.readFrom(dir)).orElse(null);
        } catch (IOException e) {
            throw new FatalException("source " + instance.sourceId() + ": cannot read " + dir.resolve(ChunkJournal.NAME)
                    + " (" + e.getMessage() + "), which says until where the sync must write in safe mode");
        }
    }

    public static VerifyConfig verify(TaskConfig task, MySqlInstance instance) {
        TableFilter filter = TableFilter.forInstance(task, instance);
        List<TablePair> pairs = VerifyConfig.listPairs(instance.from().toConnectionSpec(), filter::matchTable,
                router(task, instance), extraColumns(task, instance));
        return VerifyConfig.of(instance.from().toConnectionSpec(), task.targetDatabase().toConnectionSpec(), pairs)
                .withTableWhere(copiedRows(task, instance));
    }

    public static UnaryOperator<TableName> router(TaskConfig task, MySqlInstance instance) {
        TableRouter r = TableRouter.forInstance(task, instance);
        return t -> {
            RoutedName n = r.route(t.schema(), t.table());
            return new TableName(n.schema(), n.table());
        };
    }

    /** The columns a source table's route adds to its target table (extract-table and its siblings). */
    public static Function<TableName, ExtraColumns> extraColumns(TaskConfig task, MySqlInstance instance) {
        TableRouter r = TableRouter.forInstance(task, instance);
        return t -> r.route(t.schema(), t.table()).extra();
    }

    public static BinlogPosition position(BinlogMeta meta) {
        return new BinlogPosition(meta.binlogName().orElse(""), meta.binlogPos().orElse(4),
                meta.binlogGtid().orElse(""));
    }
}
