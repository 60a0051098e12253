package io.jdm.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.position.Flavor;
import io.jdm.common.schema.Column;
import io.jdm.common.schema.SchemaReader;
import io.jdm.common.schema.TableSchema;
import io.jdm.common.sql.ResultSetValues;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.SqlServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/** Shared by the sync tests: specs for the embedded pair, positions, and row-by-row comparison. */
final class SyncTestSupport {
    private SyncTestSupport() {
    }

    static ConnectionSpec spec(SqlServer s) {
        return ConnectionSpec.of(s.host(), s.port(), s.user(), s.password());
    }

    static BinlogPosition sourcePosition(SqlServer source) throws SQLException {
        try (Connection c = source.connect()) {
            return Flavor.detect(c).currentPosition(c);
        }
    }

    /** Waits until the unit has failed or {@code max} has passed; its failure's message, or "no failure". */
    static String awaitFailure(SyncUnit unit, Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        while (unit.failure().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        return unit.failure().map(Throwable::getMessage).orElse("no failure");
    }

    /** Every row of a table as canonical values rendered to text, ordered by every column. */
    static List<String> rows(SqlServer server, TableName table) throws SQLException {
        try (Connection c = io.jdm.common.jdbc.DataSources.connect(spec(server))) {
            TableSchema schema = SchemaReader.read(c, table);
            List<Column> cols = schema.columns();
            String order = cols.stream().filter(col -> !col.dataType().contains("geometry")
                            && !col.dataType().equals("point") && !col.dataType().equals("json"))
                    .map(col -> io.jdm.common.sql.Identifiers.quote(col.name())).collect(Collectors.joining(","));
            List<String> out = new ArrayList<>();
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT "
                    + ResultSetValues.selectList(cols) + " FROM " + table.quoted() + " ORDER BY " + order)) {
                while (rs.next()) {
                    StringBuilder sb = new StringBuilder();
                    for (int i = 0; i < cols.size(); i++) {
                        Object v = ResultSetValues.read(rs, i + 1, cols.get(i));
                        sb.append(cols.get(i).name()).append('=')
                                .append(v instanceof byte[] b ? "0x" + HexFormat.of().formatHex(b) : String.valueOf(v))
                                .append(v == null ? "" : "(" + v.getClass().getSimpleName() + ")").append(" | ");
                    }
                    out.add(sb.toString());
                }
            }
            return out;
        }
    }

    /** Source and target hold the same rows, compared value by value. */
    static void assertSameRows(SqlServer source, SqlServer target, TableName table) throws SQLException {
        List<String> s = rows(source, table);
        List<String> t = rows(target, table);
        assertEquals(s.size(), t.size(), "row count of " + table);
        for (int i = 0; i < s.size(); i++) {
            assertEquals(s.get(i), t.get(i), "row " + i + " of " + table);
        }
    }
}
