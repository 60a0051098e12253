package io.jdm.common.dumpdir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * {@code jdm-files}: what jdm's dump wrote into each data file, so the load can refuse a damaged
 * dump before it loads a row of it. One line per file, written before {@code metadata}:
 *
 * <pre>
 * # jdm data files: crc32c size rows name
 * 1a2b3c4d 1048576 5000 db.tbl.000000001.sql.gz
 * </pre>
 *
 * The checksum and size are of the bytes as stored, so a compressed file is checked without
 * decompressing it. The name contains no {@code .sql}, so myloader and TiDB Lightning, which pick
 * files by that suffix, ignore the file; dumps by Dumpling or mydumper have none.
 */
public record FileManifest(Map<String, Entry> entries) {
    public static final String NAME = "jdm-files";
    /** Names it lists are escaped as Dumpling escapes them. */
    private static final String HEADER = "# jdm data files: crc32c size rows name (names as Dumpling escapes them)";
    /** Written by older jdm versions, whose names were escaped {@code @xxxx}. */
    private static final String LEGACY_HEADER = "# jdm data files: crc32c size rows name";

    /** One data file: CRC32C and size of its bytes on disk, and the rows its statements insert. */
    public record Entry(String name, long crc32c, long size, long rows) {
    }

    public FileManifest {
        entries = Map.copyOf(entries);
    }

    public static FileManifest of(Collection<Entry> files) {
        Map<String, Entry> m = new LinkedHashMap<>();
        files.forEach(e -> m.put(e.name(), e));
        return new FileManifest(m);
    }

    public Optional<Entry> entry(String fileName) {
        return Optional.ofNullable(entries.get(fileName));
    }

    public String render() {
        StringBuilder sb = new StringBuilder(HEADER).append('\n');
        List<Entry> sorted = new ArrayList<>(entries.values());
        sorted.sort(Comparator.comparing(Entry::name));
        for (Entry e : sorted) {
            String crc = Long.toHexString(e.crc32c());
            sb.append("00000000", 0, Math.max(0, 8 - crc.length())).append(crc).append(' ').append(e.size())
                    .append(' ').append(e.rows()).append(' ').append(e.name()).append('\n');
        }
        return sb.toString();
    }

    /** Writes {@code dir/jdm-files} atomically; the dump writes {@code metadata} after it. */
    public void writeTo(Path dir) throws IOException {
        AtomicFile.write(dir, NAME, render());
    }

    /** Reads {@code dir/jdm-files}; empty when the dump has none (Dumpling, mydumper). */
    public static Optional<FileManifest> readFrom(Path dir) throws IOException {
        Optional<List<String>> lines = AtomicFile.readLines(dir, NAME);
        return lines.isEmpty() ? Optional.empty() : Optional.of(parse(lines.get()));
    }

    /**
     * How the names in {@code dir} are escaped: {@code @xxxx} when an older jdm wrote the dump (its
     * {@code jdm-files} starts with the old header), Dumpling's {@code %XX} otherwise.
     */
    public static DumpFileNames.Escaping escaping(Path dir) throws IOException {
        Path f = dir.resolve(NAME);
        if (!Files.exists(f)) {
            return DumpFileNames.Escaping.PERCENT;
        }
        try (var lines = Files.lines(f, StandardCharsets.UTF_8)) {
            return lines.findFirst().map(String::strip).filter(LEGACY_HEADER::equals).isPresent()
                    ? DumpFileNames.Escaping.LEGACY_AT : DumpFileNames.Escaping.PERCENT;
        }
    }

    static FileManifest parse(List<String> lines) throws IOException {
        Map<String, Entry> m = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split(" ", 4);
            try {
                if (f.length != 4) {
                    throw new IllegalArgumentException("4 fields expected");
                }
                m.put(f[3], new Entry(f[3], Long.parseLong(f[0], 16), Long.parseLong(f[1]), Long.parseLong(f[2])));
            } catch (IllegalArgumentException e) {
                throw new IOException(NAME + " line " + (i + 1) + " is not \"crc32c size rows name\": " + line);
            }
        }
        return new FileManifest(m);
    }

    /** The CRC32C of a file's bytes. */
    public static long crc32c(Path file) throws IOException {
        CRC32C crc = new CRC32C();
        byte[] buf = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n; (n = in.read(buf)) > 0; ) {
                crc.update(buf, 0, n);
            }
        }
        return crc.getValue();
    }
}
