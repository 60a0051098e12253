package io.jdm.common.dumpdir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.position.BinlogPosition;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChunkJournalTest {
    private static final ChunkJournal.Done FIRST = new ChunkJournal.Done("db", "t", 2,
            new BinlogPosition("bin.000002", 400, "0-1-7"), new BinlogPosition("bin.000002", 900, "0-1-9"),
            List.of(new FileManifest.Entry("db.t.000000003.sql", 0xfeedL, 123, 4),
                    new FileManifest.Entry("db.t.000000004.sql", 1, 5, 1)));
    private static final ChunkJournal.Done SECOND = new ChunkJournal.Done("db", "u", 1,
            new BinlogPosition("bin.000001", 4000, ""), new BinlogPosition("bin.000003", 4, ""), List.of());

    @Test
    void finishedChunksReadBackInOrderAcrossReopens(@TempDir Path dir) throws IOException {
        assertEquals(List.of(), ChunkJournal.readFrom(dir));
        try (ChunkJournal j = ChunkJournal.append(dir)) {
            j.record(FIRST);
        }
        try (ChunkJournal j = ChunkJournal.append(dir)) {
            j.record(SECOND);
        }
        assertEquals(List.of(FIRST, SECOND), ChunkJournal.readFrom(dir));
    }

    @Test
    void aLineTheKillCutShortIsNoFinishedChunk(@TempDir Path dir) throws IOException {
        try (ChunkJournal j = ChunkJournal.append(dir)) {
            j.record(FIRST);
        }
        String second = ChunkJournal.render(SECOND);
        for (int cut = 0; cut < second.length(); cut += 7) {
            Path d = Files.createDirectories(dir.resolve("cut" + cut));
            Files.copy(dir.resolve(ChunkJournal.NAME), d.resolve(ChunkJournal.NAME));
            Files.writeString(d.resolve(ChunkJournal.NAME), second.substring(0, cut), StandardCharsets.UTF_8,
                    StandardOpenOption.APPEND);
            assertEquals(List.of(FIRST), ChunkJournal.readFrom(d), "cut at " + cut);
            try (ChunkJournal j = ChunkJournal.append(d)) {
                j.record(SECOND);
            }
            assertEquals(List.of(FIRST, SECOND), ChunkJournal.readFrom(d), "appended after a cut at " + cut);
        }
    }

    @Test
    void lowestLowAndHighestHighSpanEveryChunkAndFiles() {
        assertEquals(new BinlogPosition("bin.000001", 4000, ""), ChunkJournal.lowest(List.of(FIRST, SECOND)).orElseThrow());
        assertEquals(new BinlogPosition("bin.000003", 4, ""), ChunkJournal.highest(List.of(FIRST, SECOND)).orElseThrow());
        ChunkJournal.Done noBinlog = new ChunkJournal.Done("db", "v", 1, null, null, List.of());
        assertTrue(ChunkJournal.lowest(List.of(noBinlog)).isEmpty());
        assertEquals(List.of(noBinlog), roundTrip(noBinlog));
    }

    @Test
    void aDamagedCompleteLineIsNamed() {
        IOException e = assertThrows(IOException.class, () -> ChunkJournal.parse("{\"schema\":1}\n"));
        assertTrue(e.getMessage().startsWith("jdm-chunks line 1 cannot be read"), e.getMessage());
    }

    private static List<ChunkJournal.Done> roundTrip(ChunkJournal.Done d) {
        try {
            return ChunkJournal.parse(ChunkJournal.render(d) + "\n");
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
