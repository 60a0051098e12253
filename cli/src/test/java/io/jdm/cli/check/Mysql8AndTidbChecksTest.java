package io.jdm.cli.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.cli.check.CheckResult.Status;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The checks for MySQL 8 sources and TiDB targets, against server facts given by hand. */
class Mysql8AndTidbChecksTest {
    private static final String TIDB_6_5 = "8.0.11-TiDB-v6.5.3";
    private static final String TIDB_7_5 = "8.0.11-TiDB-v7.5.1";

    private static ServerFacts mysql(String rowValueOptions) {
        return ServerFacts.of("8.0.36", Map.of("binlog_row_value_options", rowValueOptions), List.of());
    }

    @Test
    void partialJsonFailsWithTheFix() {
        CheckResult r = SourceChecks.rowValueOptions(mysql("PARTIAL_JSON"), "source s1");
        assertEquals(Status.FAIL, r.status());
        assertTrue(r.detail().contains("SET GLOBAL binlog_row_value_options=''"), r.detail());
        assertEquals(Status.PASS, SourceChecks.rowValueOptions(mysql(""), "source s1").status());
    }

    /** MySQL 8's default local_infile is OFF: the load then sends INSERT statements, and check says how to speed it up. */
    @Test
    void aTargetWithoutLocalInfileWarnsWithTheSetting() {
        CheckResult off = TargetChecks.localInfile(ServerFacts.of("8.0.36", Map.of("local_infile", "OFF"), List.of()),
                "target");
        assertEquals(Status.WARN, off.status());
        assertTrue(off.detail().contains("SET GLOBAL local_infile = 1"), off.detail());
        assertEquals(Status.PASS, TargetChecks.localInfile(ServerFacts.of("8.0.36", Map.of("local_infile", "ON"),
                List.of()), "target").status());
        CheckResult tidb = TargetChecks.localInfile(ServerFacts.of(TIDB_7_5, Map.of(), List.of()), "target");
        assertEquals(Status.PASS, tidb.status());
        assertTrue(tidb.detail().contains("INSERT statements"), tidb.detail());
    }

    @Test
    void tidbIsRecognisedByItsVersionString() {
        assertEquals(io.jdm.common.position.Flavor.TIDB, ServerFacts.of(TIDB_7_5, Map.of(), List.of()).flavor);
        assertEquals(Status.PASS, SourceChecks.version(ServerFacts.of(TIDB_7_5, Map.of(), List.of()), "target").status());
        assertEquals(io.jdm.common.position.Flavor.MYSQL, mysql("").flavor);
    }

    @Test
    void foreignKeysWarnBeforeTidb66Only() {
        TidbChecks.SourceTables fk = new TidbChecks.SourceTables(List.of("`db`.`child`"), List.of(), List.of());
        CheckResult old = item(TidbChecks.judge(TIDB_6_5, "target", fk), "tidb_foreign_key");
        assertEquals(Status.WARN, old.status());
        assertTrue(old.detail().contains("`db`.`child`") && old.detail().contains("v6.6"), old.detail());
        assertEquals(Status.PASS, item(TidbChecks.judge(TIDB_7_5, "target", fk), "tidb_foreign_key").status());
        assertEquals(Status.PASS, item(TidbChecks.judge("8.0.11-TiDB-v6.6.0", "target", fk), "tidb_foreign_key").status());
    }

    @Test
    void spatialColumnsAndGipkWarn() {
        TidbChecks.SourceTables t = new TidbChecks.SourceTables(List.of(), List.of("`db`.`places`"),
                List.of("`db`.`logs`"));
        List<CheckResult> rs = TidbChecks.judge(TIDB_7_5, "target", t);
        assertEquals(Status.WARN, item(rs, "tidb_spatial").status());
        assertTrue(item(rs, "tidb_spatial").detail().contains("`db`.`places`"));
        assertEquals(Status.WARN, item(rs, "tidb_gipk").status());
        assertTrue(item(rs, "tidb_gipk").detail().contains("my_row_id"));
        List<CheckResult> clean = TidbChecks.judge(TIDB_7_5, "target",
                new TidbChecks.SourceTables(List.of(), List.of(), List.of()));
        assertTrue(clean.stream().allMatch(r -> r.status() == Status.PASS), clean.toString());
    }

    private static CheckResult item(List<CheckResult> rs, String item) {
        return rs.stream().filter(r -> r.item().equals(item)).findFirst().orElseThrow();
    }
}
