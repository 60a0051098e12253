package io.jdm.dump;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.config.Compression;
import io.jdm.common.dumpdir.FileManifest;
import io.jdm.common.metrics.Throughput;
import io.jdm.common.schema.Column;
import io.jdm.common.schema.TableSchema;
import io.jdm.common.sql.SqlBytes;
import io.jdm.common.sql.TableName;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.zip.CRC32C;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The data files one chunk's rows become: statements, files, and the manifest entries of what is on disk. */
class DataFileWriterTest {
    private static final TableSchema T = new TableSchema(new TableName("d", "t"),
            List.of(new Column("id", 1, "int", "int", false, false, null, null)), List.of("id"), List.of());
    private static final String INSERT = "INSERT INTO `t` (`id`) VALUES\n";

    @TempDir
    Path dir;

    private DataFileWriter writer(Compression c, long statementSize, long fileSize) {
        return new DataFileWriter(dir, new TableJob(T, 0), c, statementSize, fileSize, new Throughput("test"),
                new SqlBytes(64));
    }

    private static void rows(DataFileWriter w, int from, int to) throws IOException {
        for (int i = from; i <= to; i++) {
            w.startRow().appendAscii(Integer.toString(i));
            w.endRow();
        }
    }

    private static String statement(int from, int to) {
        StringBuilder sb = new StringBuilder(INSERT);
        for (int i = from; i <= to; i++) {
            sb.append(i == from ? "(" : ",\n(").append(i).append(')');
        }
        return sb.append(";\n").toString();
    }

    @Test
    void statementsEndAtTheirSizeAndFilesAtTheirsEachWithTheHeader() throws IOException {
        // rows of 5 and 7 bytes: a statement ends once it holds 40 bytes, after the prefix (30) and two
        // rows; a file once it holds 150, after the header (67) and two statements of 44
        DataFileWriter w = writer(Compression.NONE, 40, 150);
        rows(w, 101, 112);
        w.finish();
        assertEquals(List.of("d.t.000000001.sql", "d.t.000000002.sql", "d.t.000000003.sql"),
                w.files().stream().map(p -> p.getFileName().toString()).toList());
        for (int f = 0; f < 3; f++) {
            int first = 101 + 4 * f;
            assertEquals(DataFileWriter.HEADER + statement(first, first + 1) + statement(first + 2, first + 3),
                    Files.readString(w.files().get(f)));
        }
        assertManifestDescribesTheFiles(w, List.of(4L, 4L, 4L));
        long onDisk = 0;
        for (Path f : w.files()) {
            onDisk += Files.size(f);
        }
        assertEquals(onDisk, w.bytes());
    }

    @Test
    void aChunkWithoutRowsLeavesNoFile() throws IOException {
        DataFileWriter w = writer(Compression.NONE, 1000, 0);
        w.finish();
        assertEquals(List.of(), w.files());
        assertEquals(List.of(), w.written());
        try (var files = Files.list(dir)) {
            assertEquals(0, files.count());
        }
    }

    @Test
    void rowsPastTheWriteBufferReachTheFileWhole() throws IOException {
        DataFileWriter w = writer(Compression.NONE, 10_000, 0);
        int n = DataFileWriter.WRITE_AT / 4; // about 7 bytes a row: the buffer is written out several times
        rows(w, 1, n);
        w.finish();
        assertEquals(1, w.files().size());
        String text = Files.readString(w.files().get(0));
        assertTrue(text.startsWith(DataFileWriter.HEADER), text.substring(0, 120));
        List<Integer> ids = new ArrayList<>();
        for (String st : text.substring(DataFileWriter.HEADER.length()).split(";\n")) {
            assertTrue(st.startsWith(INSERT), st.substring(0, 40));
            for (String row : st.substring(INSERT.length()).split(",\n")) {
                ids.add(Integer.parseInt(row.substring(1, row.length() - 1)));
            }
        }
        assertEquals(IntStream.rangeClosed(1, n).boxed().toList(), ids);
        assertManifestDescribesTheFiles(w, List.of((long) n));
    }

    @Test
    void aCompressedFileIsCheckedAsStored() throws IOException {
        DataFileWriter w = writer(Compression.GZIP, 40, 0);
        rows(w, 101, 105);
        w.finish();
        assertEquals(List.of("d.t.000000001.sql.gz"),
                w.files().stream().map(p -> p.getFileName().toString()).toList());
        try (InputStream in = new GZIPInputStream(Files.newInputStream(w.files().get(0)))) {
            assertEquals(DataFileWriter.HEADER + statement(101, 102) + statement(103, 104) + statement(105, 105),
                    new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
        assertManifestDescribesTheFiles(w, List.of(5L));
    }

    /** Each entry holds the name, size and CRC-32C of the file's bytes on disk, and its rows. */
    private static void assertManifestDescribesTheFiles(DataFileWriter w, List<Long> rows) throws IOException {
        List<FileManifest.Entry> entries = w.written();
        assertEquals(w.files().size(), entries.size());
        for (int i = 0; i < entries.size(); i++) {
            Path f = w.files().get(i);
            byte[] bytes = Files.readAllBytes(f);
            CRC32C crc = new CRC32C();
            crc.update(bytes);
            assertEquals(new FileManifest.Entry(f.getFileName().toString(), crc.getValue(), bytes.length, rows.get(i)),
                    entries.get(i));
        }
    }
}
