package io.jdm.cli.run;

import io.jdm.embedded.Seq;
import io.jdm.embedded.SqlServer;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Writes to {@code db.t} (id primary key, u unique NOT NULL) until stopped: inserts, deletes,
 * updates that change the primary key (the row moves to another chunk's range) and swaps of two
 * rows' unique values in one transaction: what a lock-free dump's chunks must converge over.
 */
final class LockFreeWorkload implements AutoCloseable {
    private final SqlServer source;
    private final String db;
    private final Random random;
    private final Thread thread;
    private final AtomicLong ops = new AtomicLong();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean stop;
    private int nextId;

    private LockFreeWorkload(SqlServer source, String db, int rows, long seed) {
        this.source = source;
        this.db = db;
        this.random = new Random(seed);
        this.nextId = rows + 1;
        this.thread = new Thread(this::run, "lock-free-workload");
    }

    /** Creates {@code db.t} with {@code rows} rows, u = id, and starts writing. */
    static LockFreeWorkload start(SqlServer source, String db, int rows, long seed) {
        source.freshDatabase(db);
        source.execute("USE `" + db + "`", "CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY, u INT NOT NULL, v VARCHAR(40),"
                        + " UNIQUE KEY uk (u))",
                "INSERT INTO `" + db + "`.t SELECT seq, seq, CONCAT('v', seq) FROM " + Seq.upTo(rows),
                "ANALYZE TABLE `" + db + "`.t");
        LockFreeWorkload w = new LockFreeWorkload(source, db, rows, seed);
        w.thread.start();
        return w;
    }

    private void run() {
        String t = "`" + db + "`.t";
        try (Connection c = source.connect(); Statement st = c.createStatement()) {
            while (!stop) {
                int id = 1 + random.nextInt(nextId);
                switch (random.nextInt(5)) {
                    case 0 -> {
                        int n = nextId++;
                        st.executeUpdate("INSERT IGNORE INTO " + t + " VALUES (" + n + ", " + (n + 10_000_000) + ", 'new')");
                    }
                    case 1 -> st.executeUpdate("DELETE FROM " + t + " WHERE id = " + id);
                    case 2 -> st.executeUpdate("UPDATE IGNORE " + t + " SET id = " + (nextId++) + " WHERE id = " + id);
                    case 3 -> swap(c, st, t, id, 1 + random.nextInt(nextId));
                    default -> st.executeUpdate("UPDATE " + t + " SET v = 'w" + ops.get() + "' WHERE id = " + id);
                }
                ops.incrementAndGet();
            }
        } catch (SQLException | RuntimeException e) {
            failure.set(e);
        }
    }

    /** Swaps the unique values of rows a and b in one transaction, through a free (negative) value. */
    private static void swap(Connection c, Statement st, String t, int a, int b) throws SQLException {
        if (a == b) {
            return;
        }
        c.setAutoCommit(false);
        try {
            st.executeUpdate("UPDATE " + t + " SET u = -u WHERE id = " + a);
            st.execute("SET @ua = (SELECT -u FROM " + t + " WHERE id = " + a + "), @ub = (SELECT u FROM " + t
                    + " WHERE id = " + b + ")");
            st.executeUpdate("UPDATE " + t + " SET u = @ua WHERE id = " + b + " AND @ua IS NOT NULL");
            st.executeUpdate("UPDATE " + t + " SET u = IF(@ub IS NULL, -u, @ub) WHERE id = " + a);
            c.commit();
        } catch (SQLException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
    }

    long ops() {
        return ops.get();
    }

    /** Stops writing; throws what the workload failed with, if anything. */
    @Override
    public void close() throws Exception {
        stop = true;
        thread.join(30_000);
        if (failure.get() != null) {
            throw new AssertionError("workload failed: " + failure.get(), failure.get());
        }
    }
}
