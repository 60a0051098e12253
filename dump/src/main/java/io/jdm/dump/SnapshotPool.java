package io.jdm.dump;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * The connections that read inside the dump's snapshot, lent out one chunk at a time. It holds one
 * more connection than there are workers: the chunk planner uses it, and when a worker loses its
 * connection the chunk is retried on another one that still sees the same snapshot. Where the
 * snapshot can be opened again (TiDB's {@code tidb_snapshot}, or {@code consistency: none}) a lost
 * connection is replaced instead.
 */
final class SnapshotPool implements AutoCloseable {
    /** Opens a connection that sees the same snapshot; null when no such connection can be made. */
    interface Reopener {
        Connection open() throws SQLException;
    }

    private final BlockingQueue<Connection> idle;
    private final AtomicInteger alive;
    private final Reopener reopener;

    SnapshotPool(List<Connection> connections, Reopener reopener) {
        this.idle = new ArrayBlockingQueue<>(Math.max(1, connections.size()), false, connections);
        this.alive = new AtomicInteger(connections.size());
        this.reopener = reopener;
    }

    /** A connection, or null when {@code cancelled} turned true or no connection is left. */
    Connection take(BooleanSupplier cancelled) throws InterruptedException {
        while (!cancelled.getAsBoolean()) {
            Connection c = idle.poll(100, TimeUnit.MILLISECONDS);
            if (c != null) {
                return c;
            }
            if (alive.get() == 0) {
                return null;
            }
        }
        return null;
    }

    void give(Connection c) {
        if (!idle.offer(c)) {
            abort(c); // cannot happen: the queue holds every connection there is
            alive.decrementAndGet();
        }
    }

    /** Drops a broken connection; a reopenable snapshot gets a fresh one in its place. */
    void discard(Connection c) throws SQLException {
        abort(c);
        if (reopener != null) {
            idle.offer(reopener.open());
        } else {
            alive.decrementAndGet();
        }
    }

    /** True while another connection in the same snapshot is or will be available. */
    boolean canRetry() {
        return reopener != null || alive.get() > 0;
    }

    /** Closes without waiting: a streaming result would otherwise be read to its end first. */
    static void abort(Connection c) {
        try {
            c.abort(Runnable::run);
        } catch (SQLException | RuntimeException ignored) {
            // the connection is being thrown away
        }
    }

    @Override
    public void close() {
        Connection c;
        while ((c = idle.poll()) != null) {
            try {
                c.close();
            } catch (SQLException e) {
                abort(c);
            }
        }
    }
}
