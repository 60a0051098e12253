package io.jdm.common.dumpdir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.position.BinlogPosition;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code jdm-chunks}: the chunks of a lock-free dump that are finished, one JSON line each, appended
 * and fsynced once the chunk's files are complete and closed: the table, the chunk's number in
 * {@link ChunkPlan}, its files (as {@code jdm-files} records them) and the binlog positions read
 * just before (LOW) and just after (HIGH) its snapshot opened. A dump resumed after a kill keeps
 * exactly the chunks listed here and reads the others again; a last line cut short by the kill is
 * not a finished chunk. Like {@link ChunkPlan}, Dumpling-layout readers pass the file by.
 */
public final class ChunkJournal implements AutoCloseable {
    public static final String NAME = "jdm-chunks";

    /** One finished chunk; {@code low} and {@code high} are null when the source writes no binlog. */
    public record Done(String schema, String table, int chunk, BinlogPosition low, BinlogPosition high,
                       List<FileManifest.Entry> files) {
        public Done {
            Objects.requireNonNull(schema, "schema");
            Objects.requireNonNull(table, "table");
            files = List.copyOf(files);
        }
    }

    private final FileChannel out;

    private ChunkJournal(FileChannel out) {
        this.out = out;
    }

    /**
     * Opens {@code dir/jdm-chunks} for appending, creating it ({@code 0600}) when absent; a last line
     * a kill cut short is cut off first, so the next record starts a line of its own.
     */
    public static ChunkJournal append(Path dir) throws IOException {
        Path f = dir.resolve(NAME);
        FileChannel c = OwnerOnly.openKeeping(f, StandardOpenOption.WRITE);
        try {
            byte[] bytes = Files.readAllBytes(f);
            int end = bytes.length;
            while (end > 0 && bytes[end - 1] != '\n') {
                end--;
            }
            c.truncate(end);
            c.position(end);
            c.force(false);
            return new ChunkJournal(c);
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /** Records a finished chunk; returns once the line is on disk. */
    public synchronized void record(Done d) throws IOException {
        ByteBuffer line = ByteBuffer.wrap((render(d) + "\n").getBytes(StandardCharsets.UTF_8));
        while (line.hasRemaining()) {
            out.write(line);
        }
        out.force(false);
    }

    @Override
    public void close() throws IOException {
        out.close();
    }

    static String render(Done d) {
        ObjectNode n = JsonLines.MAPPER.createObjectNode().put("schema", d.schema()).put("table", d.table())
                .put("chunk", d.chunk());
        position(n, "low", d.low());
        position(n, "high", d.high());
        ArrayNode files = n.putArray("files");
        for (FileManifest.Entry e : d.files()) {
            files.addObject().put("name", e.name()).put("crc32c", e.crc32c()).put("size", e.size())
                    .put("rows", e.rows());
        }
        return n.toString();
    }

    private static void position(ObjectNode n, String field, BinlogPosition p) {
        if (p != null) {
            n.putObject(field).put("file", p.file()).put("pos", p.pos()).put("gtid", p.gtidSet());
        }
    }

    /** The finished chunks recorded in {@code dir}; empty when there is no journal. */
    public static List<Done> readFrom(Path dir) throws IOException {
        Path f = dir.resolve(NAME);
        if (!Files.exists(f)) {
            return List.of();
        }
        return parse(Files.readString(f, StandardCharsets.UTF_8));
    }

    static List<Done> parse(String text) throws IOException {
        List<Done> out = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        // the last element is what follows the last newline: a line the kill cut short, or ""
        for (int i = 0; i < lines.length - 1; i++) {
            String line = lines[i].strip();
            if (line.isEmpty()) {
                continue;
            }
            try {
                out.add(parseLine(JsonLines.MAPPER.readTree(line)));
            } catch (IOException | RuntimeException e) {
                throw new IOException(NAME + " line " + (i + 1) + " cannot be read (" + ErrorClassifier.oneLine(e)
                        + "); delete the dump directory and dump again");
            }
        }
        return out;
    }

    private static Done parseLine(JsonNode n) {
        List<FileManifest.Entry> files = new ArrayList<>();
        n.get("files").forEach(f -> files.add(new FileManifest.Entry(f.get("name").asText(),
                f.get("crc32c").asLong(), f.get("size").asLong(), f.get("rows").asLong())));
        return new Done(n.get("schema").asText(), n.get("table").asText(), n.get("chunk").asInt(),
                position(n.get("low")), position(n.get("high")), files);
    }

    private static BinlogPosition position(JsonNode n) {
        return n == null || n.isNull() ? null
                : new BinlogPosition(n.get("file").asText(), n.get("pos").asLong(), n.get("gtid").asText());
    }

    /** The lowest LOW: where a sync after this dump starts. */
    public static Optional<BinlogPosition> lowest(List<Done> chunks) {
        return chunks.stream().map(Done::low).filter(Objects::nonNull).min(Comparator.naturalOrder());
    }

    /** The highest HIGH: until the stream passes it, the sync writes in safe mode. */
    public static Optional<BinlogPosition> highest(List<Done> chunks) {
        return chunks.stream().map(Done::high).filter(Objects::nonNull).max(Comparator.naturalOrder());
    }
}
