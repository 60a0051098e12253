package io.jdm.sync.reader;

import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_ACCESS_DENIED_ERROR;
import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_BINLOG_FATAL_ERROR;
import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_DBACCESS_DENIED_ERROR;
import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_SOURCE_FATAL_ERROR_READING_BINLOG;
import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_SPECIFIC_ACCESS_DENIED_ERROR;
import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_TABLEACCESS_DENIED_ERROR;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.network.SSLMode;
import com.github.shyiko.mysql.binlog.network.ServerException;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.error.JdmException;
import io.jdm.common.error.RetriableException;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.jdbc.Tls;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.position.Flavor;
import io.jdm.common.sql.TableName;
import io.jdm.common.util.NamedThreadFactory;
import io.jdm.sync.ring.ChangePos;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import javax.net.ssl.SSLSocket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streams the source's binlog from a position on one named thread and hands row changes and DDL of
 * selected tables to a {@link ChangeSink}. Reconnects from the last transaction boundary when the
 * connection drops (dropping what it had already handed on), within a retry budget; stops for
 * good on a purged position (error 1236) or any failure of its own.
 */
public final class BinlogReader {
    private static final Logger LOG = LoggerFactory.getLogger(BinlogReader.class);
    /**
     * How long the reader stays connected while held at the gate: a source drops a stream it cannot
     * write to after net_write_timeout (60 s by default), and one seen here (1 s) then stalled.
     */
    static final Duration HOLD_CONNECTED = Duration.ofSeconds(5);
    /**
     * How often, at most, a transaction boundary goes into the ring while the stream runs: often
     * enough that writers' positions follow a stream of unselected tables within a checkpoint
     * interval (1 s is the shortest one tests use), one ring slot a second costs nothing.
     */
    static final long PROGRESS_EVERY_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** How to connect and what to read. */
    /**
     * How to connect and what to read.
     *
     * @param target where the schema tracker keeps its scratch copies (the sync target)
     * @param scratchSchema the tracker's private schema on the target, dropped at every start
     * @param decider the event filter
     * @param onlineDdl handle gh-ost / pt-online-schema-change shadow tables as DM does
     * @param startOver what removes the task's progress for this source on the target, said when
     *        the source has purged the binlogs the checkpoint needs
     */
    public record Settings(String task, ConnectionSpec source, long serverId, boolean useGtid,
                           Duration heartbeat, Duration retryBudget, Duration maxBackoff,
                           BiPredicate<String, String> selected, UnaryOperator<TableName> router,
                           ConnectionSpec target, String scratchSchema, EventDecider decider, boolean onlineDdl,
                           String startOver) {
    }

    /** The tracker's scratch schema for one task's source on the target. */
    public static String scratchSchema(String metaSchema, String task, String sourceId) {
        return SchemaTracker.scratchSchema(metaSchema, task, sourceId);
    }

    private final Settings settings;
    private final Consumer<JdmException> onFailure;
    private final Thread thread;
    private final CountDownLatch firstConnect = new CountDownLatch(1);
    private final ReaderContext ctx;
    private final boolean mariadb;
    private final Map<EventType, BinlogEventHandler> handlers = Handlers.create();
    private volatile boolean stopping;
    private volatile boolean failed;
    private volatile BinaryLogClient client;
    private volatile Exception connectionFailure;
    private volatile long reconnects;
    private volatile boolean heldDisconnect;

    private final ReadGate gate;

    public BinlogReader(Settings settings, BinlogPosition start, ChangeSink sink, Consumer<JdmException> onFailure) {
        this(settings, start, sink, onFailure, new ReadGate());
    }

    /** With {@code gate} checked at every transaction boundary (see {@link ReadGate}). */
    public BinlogReader(Settings settings, BinlogPosition start, ChangeSink sink, Consumer<JdmException> onFailure,
                        ReadGate gate) {
        this.settings = settings;
        this.gate = gate;
        this.onFailure = onFailure;
        SourceCatalog catalog = SourceCatalog.read(settings.source());
        this.mariadb = catalog.flavor() == Flavor.MARIADB;
        SchemaTracker tracker = new SchemaTracker(settings.target(), settings.source(), settings.scratchSchema(),
                settings.selected(), settings.router(), settings.retryBudget());
        DdlPlanner ddl = new DdlPlanner(tracker, settings.onlineDdl() ? new OnlineDdl() : null, settings.decider(),
                settings.selected(), settings.router());
        TableCache tables = new TableCache(tracker, catalog, settings.selected(), settings.router(),
                settings.onlineDdl());
        this.ctx = new ReaderContext(sink, tables, ddl, settings.decider(), new GtidTracker(mariadb,
                start.gtidSet()), catalog, start);
        this.thread = new NamedThreadFactory(settings.task(), "sync", "reader").newThread(() -> run(start));
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

    public long reconnects() {
        return reconnects;
    }

    public boolean isAlive() {
        return thread.isAlive();
    }

    public void stop() {
        stopping = true;
        disconnect(client);
    }

    public void join(Duration timeout) throws InterruptedException {
        thread.join(Math.max(1, timeout.toMillis()));
    }

    private void run(BinlogPosition start) {
        BinlogPosition from = start;
        long lastProgress = System.nanoTime();
        long backoffMs = 100;
        try {
            ctx.tables.prepare();
            while (!stopping && !failed) {
                long seenBefore = ctx.rowEvents + (ctx.lastEventEnd == null ? 0 : ctx.lastEventEnd.pos());
                Exception failure = stream(from);
                if (stopping || failed) {
                    break;
                }
                if (heldDisconnect) {
                    heldDisconnect = false;
                    from = ctx.resumePoint();
                    LOG.info("sync: held (verify hold or paused task); binlog connection closed at {} until it ends", from);
                    gate.awaitPassable(from, () -> stopping || failed);
                    reconnects++;
                    lastProgress = System.nanoTime();
                    continue;
                }
                if (failure instanceof ServerException se
                        && se.getErrorCode() == ER_SOURCE_FATAL_ERROR_READING_BINLOG) {
                    throw purged(from, se);
                }
                if (failure instanceof ServerException se && isFatalServerError(se)) {
                    throw new FatalException("sync: the source refused the binlog stream at " + from + ": "
                            + se.getMessage(), se);
                }
                long seenAfter = ctx.rowEvents + (ctx.lastEventEnd == null ? 0 : ctx.lastEventEnd.pos());
                if (seenAfter != seenBefore) {
                    lastProgress = System.nanoTime();
                    backoffMs = 100;
                }
                if (System.nanoTime() - lastProgress > settings.retryBudget().toNanos()) {
                    throw new RetriableException("sync: lost the binlog stream from " + settings.source().address()
                            + " at " + ctx.resumePoint() + " and could not get it back within "
                            + settings.retryBudget().toSeconds() + "s: "
                            + (failure == null ? "connection closed" : ErrorClassifier.oneLine(failure))
                            + "; check the source and restart the task", failure);
                }
                from = ctx.resumePoint();
                reconnects++;
                LOG.warn("sync: binlog connection lost ({}); reconnecting from {} in {} ms",
                        failure == null ? "closed by the server" : ErrorClassifier.oneLine(failure), from, backoffMs);
                Thread.sleep(backoffMs);
                backoffMs = Math.min(backoffMs * 2, settings.maxBackoff().toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (JdmException e) {
            fail(e);
        } catch (RuntimeException e) {
            fail(ErrorClassifier.wrap("sync: reader at " + ctx.resumePoint(), e));
        } catch (OutOfMemoryError e) {
            // thrown inside the binlog library while it reads one very large event: the unit must
            // stop, not wait forever for a reader thread that is gone
            fail(new FatalException("sync: the reader ran out of memory at " + ctx.resumePoint() + " (max heap "
                    + (Runtime.getRuntime().maxMemory() >> 20) + " MiB); give the JVM more heap, e.g. "
                    + "JDM_JAVA_OPTS=-Xmx2g, and restart the task (it resumes from its checkpoint)", e));
        } finally {
            firstConnect.countDown();
            ctx.tables.close();
        }
    }

    /**
     * Between transactions, now and then hands on the boundary the stream has reached, so idle
     * writers' positions (and the restart point) move with the stream even when no selected table
     * changes. Never one at or before what was handed on already (events read again after a reconnect).
     */
    private void boundary() {
        long now = System.nanoTime();
        if (ctx.inTxn || now - ctx.lastBoundaryNanos < PROGRESS_EVERY_NANOS) {
            return;
        }
        ChangePos b = new ChangePos(ctx.file, Math.max(4, ctx.cursor), -1, -1, ctx.gtids.current());
        if (b.isAfter(ctx.lastBoundary) && b.isAfter(ctx.lastPublished)) {
            ctx.sink.progress(b);
            ctx.lastBoundary = b;
            ctx.lastBoundaryNanos = now;
        }
    }

    /**
     * The source has purged the binlog a resume needs. A checkpoint exists, so meta is not read
     * again: only the binlogs back, or starting over from a fresh dump, can go on without a gap.
     */
    private FatalException purged(BinlogPosition from, ServerException e) {
        return new FatalException("sync: task " + settings.task() + " needs binlog " + from.file() + " (from "
                + from + ") but the source " + settings.source().address() + " no longer has it (its oldest binlog "
                + "is " + oldestBinlog() + "; " + e.getMessage() + "); to go on without losing rows either restore "
                + "the purged binlogs on the source and restart, or start over from a new full dump: "
                + settings.startOver() + ", then run the task with task-mode all", e);
    }

    private String oldestBinlog() {
        try (Connection c = DataSources.connect(settings.source()); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SHOW BINARY LOGS")) {
            return rs.next() ? rs.getString(1) : "none";
        } catch (SQLException e) {
            return "unknown: " + ErrorClassifier.oneLine(e);
        }
    }

    private static boolean isFatalServerError(ServerException e) {
        int c = e.getErrorCode();
        return c == ER_ACCESS_DENIED_ERROR || c == ER_SPECIFIC_ACCESS_DENIED_ERROR
                || c == ER_DBACCESS_DENIED_ERROR || c == ER_TABLEACCESS_DENIED_ERROR
                || c == ER_SOURCE_FATAL_ERROR_READING_BINLOG || c == ER_BINLOG_FATAL_ERROR;
    }

    /** One connection's worth of streaming; returns the failure that ended it, if any. */
    private Exception stream(BinlogPosition from) {
        BinaryLogClient c = newClient(from);
        client = c;
        connectionFailure = null;
        try {
            c.connect();
        } catch (IOException | RuntimeException e) {
            return e;
        } finally {
            disconnect(c);
        }
        return connectionFailure;
    }

    /** The same TLS as the JDBC connections (CA, client certificate), on the binlog connection. */
    private static SSLSocket upgrade(Tls tls, Socket socket) throws SocketException {
        try {
            return tls.upgrade(socket);
        } catch (SocketException e) {
            throw e;
        } catch (IOException e) {
            SocketException failed = new SocketException("cannot start TLS: " + e.getMessage());
            failed.initCause(e);
            throw failed;
        }
    }

    private BinaryLogClient newClient(BinlogPosition from) {
        ConnectionSpec s = settings.source();
        BinaryLogClient c = new BinaryLogClient(s.host(), s.port(), s.user(), s.password());
        c.setServerId(settings.serverId());
        c.setKeepAlive(false); // reconnects are ours: they must resume from our position, not the client's
        c.setBlocking(true);
        c.setHeartbeatInterval(settings.heartbeat().toMillis());
        c.setConnectTimeout(s.connectTimeoutSeconds() * 1000L);
        // A caching_sha2_password user (MySQL 8) needs no setting here: without TLS the library fetches
        // the server's RSA key for the full login, as the JDBC URL allows (see ConnectionSpec#jdbcUrl)
        c.setSSLMode(s.tls().map(t -> t.verifiesServer() ? SSLMode.VERIFY_CA : SSLMode.REQUIRED)
                .orElse(SSLMode.DISABLED));
        s.tls().ifPresent(t -> c.setSslSocketFactory(socket -> upgrade(t, socket)));
        c.setEventDeserializer(Deserializers.create(settings.selected()));
        int readTimeout = (int) Math.max(10_000, settings.heartbeat().toMillis() * 5);
        c.setSocketFactory(() -> {
            Socket sock = new Socket();
            sock.setSoTimeout(readTimeout); // heartbeats keep a live stream busy; silence means it is dead
            sock.setTcpNoDelay(true);
            return sock;
        });
        if (settings.useGtid() && from.hasGtid()) {
            c.setGtidSet(from.gtidSet());
        } else {
            c.setBinlogFilename(from.file());
            c.setBinlogPosition(Math.max(4, from.pos()));
        }
        c.registerEventListener(this::onEvent);
        c.registerLifecycleListener(new BinaryLogClient.AbstractLifecycleListener() {
            @Override
            public void onConnect(BinaryLogClient client) {
                LOG.info("sync: streaming the binlog of {} from {}", s.address(), from);
            }

            @Override
            public void onCommunicationFailure(BinaryLogClient client, Exception ex) {
                connectionFailure = ex;
            }

            @Override
            public void onEventDeserializationFailure(BinaryLogClient client, Exception ex) {
                fail(ErrorClassifier.wrap("sync: cannot decode the binlog event after " + ctx.lastEventEnd, ex));
                disconnect(client);
            }
        });
        return c;
    }

    private void onEvent(Event event) {
        if (failed || stopping) {
            return; // the library would deliver the rest of the packet; nothing more may be applied
        }
        EventHeaderV4 h = event.getHeader();
        EventType type = h.getEventType();
        firstConnect.countDown(); // streaming: the server accepted the position (else 1236 comes instead)
        ctx.startEvent(h);
        if (!ctx.inTxn && gate.mayHold() && type != EventType.HEARTBEAT) {
            try {
                if (!gate.before(ctx.file, ctx.eventStart, () -> stopping || failed, HOLD_CONNECTED.toNanos())) {
                    if (!stopping && !failed) {
                        // held for a while: drop the stream ourselves before the source's write timeout
                        // does, and reconnect from this boundary once the gate lets us go on
                        heldDisconnect = true;
                        disconnect(client);
                    }
                    return;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stopping = true;
                disconnect(client);
                return;
            }
        }
        try {
            BinlogEventHandler handler = handlers.get(h.getEventType());
            if (handler != null) {
                handler.handle(h, event.getData(), ctx);
            }
            ctx.endEvent(h);
            if (type == EventType.XID || type == EventType.ROTATE || type == EventType.QUERY
                    || type == EventType.TRANSACTION_PAYLOAD) {
                boundary();
            }
        } catch (JdmException e) {
            fail(e);
        } catch (RuntimeException e) {
            fail(ErrorClassifier.wrap("sync: reader at " + ctx.file + ":" + ctx.eventStart, e));
        }
        if (failed) {
            disconnect(client);
        }
    }

    private void fail(JdmException e) {
        if (!stopping) {
            failed = true;
            onFailure.accept(e);
        }
    }

    private static void disconnect(BinaryLogClient c) {
        if (c != null) {
            try {
                c.disconnect();
            } catch (IOException e) {
                LOG.debug("binlog client disconnect: {}", e.getMessage());
            }
        }
    }
}
