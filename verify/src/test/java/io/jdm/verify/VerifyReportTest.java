package io.jdm.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.sql.TableName;
import io.jdm.verify.VerifyReport.ColumnDiff;
import io.jdm.verify.VerifyReport.DiffKind;
import io.jdm.verify.VerifyReport.Result;
import io.jdm.verify.VerifyReport.RowDiff;
import io.jdm.verify.VerifyReport.TableResult;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class VerifyReportTest {
    private static final TableName A = new TableName("db", "a");
    private static final TableName B = new TableName("db", "b");

    private static VerifyReport report(Result bResult) {
        TableResult a = new TableResult(A, A, Result.MATCH, 10, 10, 2, 0, 0, 0, 0, List.of(), null);
        TableResult b = new TableResult(B, new TableName("other", "b"), bResult, 5, 4, 1, 1, 1, 0, 1,
                List.of(new RowDiff(DiffKind.MISSING, "id=3", List.of()),
                        new RowDiff(DiffKind.CHANGED, "id=4", List.of(new ColumnDiff("v", "'x'", "'y'")))),
                bResult == Result.ERROR ? "boom" : null);
        return new VerifyReport(List.of(a, b), Duration.ofMillis(1500), null);
    }

    @Test
    void exitCodesFollowTheWorstTable() {
        assertEquals(1, report(Result.DIFFERENT).exitCode());
        assertEquals(2, report(Result.ERROR).exitCode());
        assertFalse(report(Result.DIFFERENT).matches());
        VerifyReport ok = new VerifyReport(List.of(report(Result.DIFFERENT).tables().get(0)), Duration.ZERO, null);
        assertEquals(0, ok.exitCode());
        assertTrue(ok.matches());
    }

    @Test
    void tableListsRowsAndColumns() {
        String s = report(Result.DIFFERENT).renderTable();
        assertTrue(s.contains("db.b -> other.b  DIFFERENT"), s);
        assertTrue(s.contains("MISSING id=3"), s);
        assertTrue(s.contains("CHANGED id=4"), s);
        assertTrue(s.contains("v: source 'x', target 'y'"), s);
        assertTrue(s.contains("1 tables match, 1 differ, 0 failed"), s);
    }

    @Test
    void jsonCarriesEverything() throws Exception {
        JsonNode n = new ObjectMapper().readTree(report(Result.DIFFERENT).toJson());
        assertFalse(n.get("matches").asBoolean());
        assertEquals(1, n.get("exitCode").asInt());
        JsonNode b = n.get("tables").get(1);
        assertEquals("other.b", b.get("target").asText());
        assertEquals("DIFFERENT", b.get("result").asText());
        assertEquals("v", b.get("rows").get(1).get("columns").get(0).get("column").asText());
    }

    @Test
    void rowsLeftOutByFiltersHaveAColumnOnlyWhereSomeWere() throws Exception {
        assertFalse(report(Result.DIFFERENT).renderTable().contains("FILTERED"));
        TableResult f = new TableResult(A, A, Result.MATCH, 10, 10, 2, 0, 0, 0, 0, List.of(), null, 0, List.of(), 7);
        VerifyReport r = new VerifyReport(List.of(f), Duration.ofMillis(1500), null);
        String s = r.renderTable();
        assertTrue(s.matches("(?s).*CHANGED  FILTERED\n.*MATCH .* 0         7\n.*"), s);
        assertTrue(s.contains("10 source rows (and 7 filtered out by the task's expression filters) in 1.5 s"), s);
        assertEquals(7, new ObjectMapper().readTree(r.toJson()).get("tables").get(0).get("rowsFiltered").asLong());
    }

    @Test
    void configRejectsBadValuesNamingTheField() {
        ConnectionSpec s = ConnectionSpec.of("127.0.0.1", 3306, "root", "");
        VerifyConfig c = VerifyConfig.of(s, s, List.of(TablePair.same(A)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> c.withThreads(0));
        assertTrue(e.getMessage().startsWith("verify.threads: must be 1..256, got 0"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> c.withChunkRows(0));
        assertTrue(e.getMessage().startsWith("verify.chunk-rows"), e.getMessage());
    }
}
