package io.jdm.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jdm.embedded.SqlServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The process tests' table {@code db.t (a INT, b VARCHAR)}, keyless so that a change applied twice
 * shows: rows written on a source, read as hex, and awaited on the target row by row.
 */
public final class KeylessRows {
    private KeylessRows() {
    }

    /** Rows {@code (i, 'r' + i)} for i in [from, to). */
    public static void insert(SqlServer s, String db, int from, int to) {
        StringBuilder sb = new StringBuilder("INSERT INTO " + db + ".t (a, b) VALUES ");
        for (int i = from; i < to; i++) {
            sb.append(i > from ? "," : "").append('(').append(i).append(", 'r").append(i).append("')");
        }
        s.execute(sb.toString());
    }

    /** Every row of {@code db.t} on one server, as hex, in one order. */
    public static List<String> rows(SqlServer s, String db) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = s.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT CONCAT_WS('|', HEX(a), HEX(b)) FROM " + db + ".t ORDER BY a, b")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    /** Polls until the target's table equals the source's row by row, then asserts it. */
    public static void awaitSame(SqlServer source, SqlServer target, String db) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        List<String> want = rows(source, db);
        List<String> got = List.of();
        while (System.nanoTime() < deadline) {
            try {
                got = rows(target, db);
            } catch (java.sql.SQLException e) {
                // not loaded yet
            }
            if (got.equals(want)) {
                return;
            }
            Thread.sleep(200);
        }
        assertEquals(want.size(), got.size(), db + " row count");
        assertEquals(want, got, db);
    }
}
