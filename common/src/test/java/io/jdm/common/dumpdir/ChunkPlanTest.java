package io.jdm.common.dumpdir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChunkPlanTest {
    @Test
    void aPlanReadsBackAsWrittenConditionsWithQuotesNewlinesAndWholeTables(@TempDir Path dir) throws IOException {
        ChunkPlan plan = new ChunkPlan("rows=100 where= compress=none", List.of(
                new ChunkPlan.Table("db", "t", "abc", "`id`", Arrays.asList("`id` < 10", "`id` >= 10 AND `id` < 20",
                        "`id` >= 20")),
                new ChunkPlan.Table("d\"b", "k.e\ny", "def", "`a`,`b`",
                        Arrays.asList("`a` < 'x\\'\n\"y' AND `b` = _binary 0x00", null)),
                new ChunkPlan.Table("db", "one", "0", null, Arrays.asList((String) null))));
        assertFalse(ChunkPlan.existsIn(dir));
        plan.writeTo(dir);
        assertTrue(ChunkPlan.existsIn(dir));
        assertFalse(Files.exists(dir.resolve(ChunkPlan.NAME + ".tmp")));
        assertEquals(plan, ChunkPlan.readFrom(dir).orElseThrow());
        assertEquals(3, Files.readAllLines(dir.resolve(ChunkPlan.NAME)).size() - 1, "one line per table");
    }

    @Test
    void noPlanIsEmptyAndADamagedOneIsNamed(@TempDir Path dir) throws IOException {
        assertTrue(ChunkPlan.readFrom(dir).isEmpty());
        IOException e = assertThrows(IOException.class, () -> ChunkPlan.parse(List.of("{\"settings\":\"x\"}", "{oops")));
        assertTrue(e.getMessage().startsWith("jdm-chunk-plan line 2 cannot be read"), e.getMessage());
    }

    @Test
    void dumpLayoutReadersPassThePlanAndTheJournalBy() {
        assertTrue(DumpFileNames.parse(ChunkPlan.NAME).isEmpty());
        assertTrue(DumpFileNames.parse(ChunkJournal.NAME).isEmpty());
        assertFalse(ChunkPlan.NAME.contains(".sql") || ChunkJournal.NAME.contains(".sql"));
    }
}
