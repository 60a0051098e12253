package io.jdm.sync;

import io.jdm.embedded.SqlServer;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A write workload on the source for fault tests: small transactions of inserts, updates (some
 * changing the primary key or a unique key), and deletes on a keyed table, a composite-key table
 * and a table without any key. Runs on its own thread until stopped.
 */
final class Workload implements AutoCloseable {
    private final SqlServer source;
    private final String db;
    private final Random rnd;
    private final Thread thread;
    private final AtomicLong nextId = new AtomicLong(1);
    private final AtomicLong txns = new AtomicLong();
    private final AtomicReference<Throwable> error = new AtomicReference<>();
    private volatile boolean running = true;

    Workload(SqlServer source, String db, long seed) {
        this.source = source;
        this.db = db;
        this.rnd = new Random(seed);
        this.thread = new Thread(this::loop, "fault-workload");
    }

    static void createTables(SqlServer s, String db) {
        s.execute("CREATE TABLE `" + db + "`.acc (id INT PRIMARY KEY, uk INT NOT NULL, v VARCHAR(50), n BIGINT,"
                        + " UNIQUE KEY (uk))",
                "CREATE TABLE `" + db + "`.orders (a INT NOT NULL, b INT NOT NULL, payload TEXT, PRIMARY KEY (a, b))",
                "CREATE TABLE `" + db + "`.logs (k INT, msg VARCHAR(20))");
    }

    Workload start() {
        thread.start();
        return this;
    }

    long transactions() {
        return txns.get();
    }

    private void loop() {
        try (Connection c = source.connect(); Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            while (running) {
                int ops = 1 + rnd.nextInt(5);
                for (int i = 0; i < ops; i++) {
                    op(st);
                }
                c.commit();
                txns.incrementAndGet();
                if (rnd.nextInt(10) == 0) {
                    Thread.sleep(1);
                }
            }
        } catch (SQLException | RuntimeException e) {
            error.set(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void op(Statement st) throws SQLException {
        String acc = "`" + db + "`.acc";
        String orders = "`" + db + "`.orders";
        String logs = "`" + db + "`.logs";
        long hi = nextId.get();
        long some = 1 + (long) (rnd.nextDouble() * Math.max(1, hi - 1));
        switch (rnd.nextInt(12)) {
            case 0, 1, 2 -> {
                long id = nextId.getAndIncrement();
                st.execute("INSERT INTO " + acc + " VALUES (" + id + "," + id + ",'v" + id + "'," + rnd.nextInt() + ")");
            }
            case 3 -> st.execute("UPDATE " + acc + " SET v = CONCAT(v, 'x'), n = n + 1 WHERE id = " + some);
            case 4 -> {
                // primary key change: moves the row to a fresh id
                long id = nextId.getAndIncrement();
                st.execute("UPDATE " + acc + " SET id = " + id + " WHERE id = " + some);
            }
            case 5 -> {
                // unique key change to a fresh value
                long u = nextId.getAndIncrement();
                st.execute("UPDATE " + acc + " SET uk = " + u + " WHERE id = " + some);
            }
            case 6 -> st.execute("DELETE FROM " + acc + " WHERE id = " + some);
            case 7 -> st.execute("INSERT INTO " + orders + " VALUES (" + rnd.nextInt(50) + "," + rnd.nextInt(1000)
                    + ",REPEAT('p'," + rnd.nextInt(200) + ")) ON DUPLICATE KEY UPDATE payload = CONCAT(payload,'u')");
            case 8 -> st.execute("DELETE FROM " + orders + " WHERE a = " + rnd.nextInt(50) + " LIMIT 3");
            case 9 -> st.execute("INSERT INTO " + logs + " VALUES (" + rnd.nextInt(20) + ",'m" + rnd.nextInt(5) + "')");
            case 10 -> st.execute("UPDATE " + logs + " SET msg = CONCAT(msg, 'u') WHERE k = " + rnd.nextInt(20)
                    + " ORDER BY msg LIMIT 1");
            default -> st.execute("DELETE FROM " + logs + " WHERE k = " + rnd.nextInt(20) + " ORDER BY msg LIMIT 1");
        }
    }

    /** Stops the workload; throws what made it fail, if anything. */
    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(10_000);
        if (error.get() != null) {
            throw new IllegalStateException("workload failed: " + error.get().getMessage(), error.get());
        }
    }
}
