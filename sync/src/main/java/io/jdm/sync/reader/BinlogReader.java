package io.jdm.sync.reader;

import io.jdm.common.config.OnlineDdlConfig;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.filter.ExpressionFilter;
import io.jdm.common.error.JdmException;
import io.jdm.common.filter.ExtraColumns;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.position.Flavor;
import io.jdm.common.sql.TableName;
import io.jdm.common.util.NamedThreadFactory;
import io.jdm.sync.checkpoint.OnlineDdlStore;
import io.jdm.sync.operator.Operators;
import io.jdm.sync.ring.StoppedStatement;
import io.jdm.sync.shard.ShardCoordinator;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Streams the source's binlog from a position on one named thread and hands row changes and DDL of
 * selected tables to a {@link ChangeSink}. Reconnects from the last transaction boundary when the
 * connection drops (dropping what it had already handed on), within a retry budget; stops for
 * good on a purged position (error 1236) or any failure of its own.
 *
 * <p>It puts three roles together and owns the thread: {@link BinlogConnection} (the client set
 * up as a replica of the source), {@link StreamSupervisor} (reconnecting) and
 * {@link EventDispatcher} (events to their handlers).
 */
public final class BinlogReader {
    /**
     * How to connect and what to read.
     *
     * @param target where the schema tracker keeps its scratch copies (the sync target)
     * @param scratchSchema the tracker's private schema on the target, dropped at every start
     * @param decider the event filter
     * @param onlineDdl handle gh-ost / pt-online-schema-change shadow tables as DM does
     * @param startOver what removes the task's progress for this source on the target, said when
     *        the source has purged the binlogs the checkpoint needs
     * @param shards pessimistic shard mode's coordinator, started; null without it
     * @param operators the source's binlog operators ({@code jdm binlog skip|replace}); none when null
     * @param onlineDdlStore where online DDL keeps its recorded statements, read at start; null: in
     *        memory only (a reader without a sync unit)
     * @param extraColumns the columns a source table's route adds to its target table; none when null
     * @param rowFilter DM's expression-filter: the row changes not replicated; none when null
     */
    public record Settings(String task, ConnectionSpec source, long serverId, boolean useGtid,
                           Duration heartbeat, Duration retryBudget, Duration maxBackoff,
                           BiPredicate<String, String> selected, UnaryOperator<TableName> router,
                           ConnectionSpec target, String scratchSchema, EventDecider decider,
                           OnlineDdlConfig onlineDdl, String startOver, ShardCoordinator shards, Operators operators,
                           OnlineDdlStore onlineDdlStore, Function<TableName, ExtraColumns> extraColumns,
                           ExpressionFilter rowFilter) {
        public Settings {
            operators = operators == null ? Operators.none() : operators;
            onlineDdl = onlineDdl == null ? OnlineDdlConfig.DEFAULT : onlineDdl;
            extraColumns = extraColumns == null ? t -> ExtraColumns.NONE : extraColumns;
            rowFilter = rowFilter == null ? ExpressionFilter.NONE : rowFilter;
        }

        /** Without routes that add columns. */
        public Settings(String task, ConnectionSpec source, long serverId, boolean useGtid, Duration heartbeat,
                        Duration retryBudget, Duration maxBackoff, BiPredicate<String, String> selected,
                        UnaryOperator<TableName> router, ConnectionSpec target, String scratchSchema,
                        EventDecider decider, OnlineDdlConfig onlineDdl, String startOver, ShardCoordinator shards,
                        Operators operators, OnlineDdlStore onlineDdlStore) {
            this(task, source, serverId, useGtid, heartbeat, retryBudget, maxBackoff, selected, router, target,
                    scratchSchema, decider, onlineDdl, startOver, shards, operators, onlineDdlStore, null, null);
        }
    }

    /** The tracker's scratch schema for one task's source on the target. */
    public static String scratchSchema(String metaSchema, String task, String sourceId) {
        return SchemaTracker.scratchSchema(metaSchema, task, sourceId);
    }

    private final Thread thread;
    private final CountDownLatch firstConnect = new CountDownLatch(1);
    private final ReaderContext ctx;
    private final ReaderStop stop;
    private final BinlogConnection connection;
    private final StreamSupervisor supervisor;
    private final EventDispatcher events;

    public BinlogReader(Settings settings, BinlogPosition start, ChangeSink sink, Consumer<JdmException> onFailure) {
        this(settings, start, sink, onFailure, new ReadGate());
    }

    /** With {@code gate} checked at every transaction boundary (see {@link ReadGate}). */
    public BinlogReader(Settings settings, BinlogPosition start, ChangeSink sink, Consumer<JdmException> onFailure,
                        ReadGate gate) {
        SourceCatalog catalog = SourceCatalog.read(settings.source());
        boolean mariadb = catalog.flavor() == Flavor.MARIADB;
        SchemaTracker tracker = new SchemaTracker(settings.target(), settings.source(), settings.scratchSchema(),
                settings.selected(), settings.router(), settings.retryBudget(), catalog.grammar());
        if (settings.shards() != null) {
            tracker.spools(settings.shards()::definitionOf);
        }
        tracker.extraColumns(settings.extraColumns());
        OnlineDdl online = settings.onlineDdl().enabled() ? new OnlineDdl(ShadowRules.of(settings.onlineDdl()),
                settings.onlineDdlStore(), catalog.grammar(), db -> settings.selected().test(db, "")) : null;
        DdlPlanner ddl = new DdlPlanner(tracker, online, settings.decider(), settings.selected(), settings.router(),
                settings.shards(), catalog.grammar(), settings.operators());
        TableCache tables = new TableCache(tracker, catalog, settings.selected(), settings.router(),
                online == null ? t -> false : online::isShadow, settings.rowFilter());
        this.ctx = new ReaderContext(sink, tables, ddl, settings.decider(), new GtidTracker(mariadb,
                start.gtidSet()), catalog, start, settings.shards(), settings.operators());
        this.stop = new ReaderStop(onFailure);
        EventDispatcher events = new EventDispatcher(ctx, gate, stop, firstConnect);
        this.connection = new BinlogConnection(settings, events::onEvent, ex -> stop.fail(
                ErrorClassifier.wrap("sync: cannot decode the binlog event after " + ctx.lastEventEnd, ex)));
        this.supervisor = new StreamSupervisor(settings, connection, events, ctx, gate, stop);
        this.events = events;
        this.thread = new NamedThreadFactory(settings.task(), "sync", "reader").newThread(() -> run(start));
    }

    /** {@code bytes} is told the length of every binlog event received; call before {@link #start}. */
    public void countEventBytes(java.util.function.LongConsumer bytes) {
        ctx.eventBytes = bytes;
    }

    /** Starts streaming; returns once the first event arrived (or the reader failed, or the timeout passed). */
    public void start(Duration timeout) throws InterruptedException {
        thread.start();
        firstConnect.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The end of the last event read: how far the stream has got. */
    public BinlogPosition lastEventEnd() {
        return ctx.lastEventEnd;
    }

    /** The statement the reader stopped at when it failed on one; null otherwise. */
    public StoppedStatement stoppedAt() {
        return ctx.stoppedAt;
    }

    /** How often the stream was reopened, after a lost connection or a hold. */
    public long reconnects() {
        return supervisor.reconnects();
    }

    public boolean isAlive() {
        return thread.isAlive();
    }

    public void stop() {
        stop.stop();
        connection.close();
    }

    public void join(Duration timeout) throws InterruptedException {
        thread.join(Math.max(1, timeout.toMillis()));
    }

    private void run(BinlogPosition start) {
        try {
            ctx.tables.prepare();
            supervisor.run(start);
            if (!stop.failed()) {
                events.flushBoundary(); // a clean stop: the restart point moves past the last transaction read
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (JdmException e) {
            stop.fail(e);
        } catch (RuntimeException e) {
            stop.fail(ErrorClassifier.wrap("sync: reader at " + ctx.resumePoint(), e));
        } catch (OutOfMemoryError e) {
            // thrown inside the binlog library while it reads one very large event: the unit must
            // stop, not wait forever for a reader thread that is gone
            stop.fail(new FatalException("sync: the reader ran out of memory at " + ctx.resumePoint() + " (max heap "
                    + (Runtime.getRuntime().maxMemory() >> 20) + " MiB); give the JVM more heap, e.g. "
                    + "JDM_JAVA_OPTS=-Xmx2g, and restart the task (it resumes from its checkpoint)", e));
        } finally {
            firstConnect.countDown();
            ctx.tables.close();
        }
    }
}
