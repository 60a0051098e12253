package io.jdm.dump;

import io.jdm.embedded.Seq;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table of ~80 MB dumped as ONE unchunked query by a JVM limited to a 32 MB heap: it can only
 * succeed if rows stream from the server and statements go to disk as they fill.
 */
class StreamingSmallHeapIT {
    private static final String DB = "StreamingSmallHeapIT";
    private static final int ROWS = 40_000;

    @TempDir
    Path tmp;

    @Test
    void tableLargerThanTheHeapDumpsWithXmx32m() throws Exception {
        SqlServer source = TestServers.shared().source();
        source.freshDatabase(DB);
        source.execute("USE `" + DB + "`",
                "CREATE TABLE big (id INT PRIMARY KEY, pad VARCHAR(2100))",
                "INSERT INTO big SELECT seq, CONCAT(seq, ':', REPEAT(SHA2(seq, 256), 32)) FROM " + Seq.upTo(ROWS));
        Path dir = tmp.resolve("dump");
        Path log = tmp.resolve("child.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Xmx32m", "-cp", System.getProperty("java.class.path"),
                StreamingDumpMain.class.getName(), source.host(), String.valueOf(source.port()), dir.toString(), DB)
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "child dump did not finish in 120 s");
        String out = Files.readString(log);
        assertEquals(0, p.exitValue(), "child failed:\n" + tail(out));
        assertTrue(out.contains("ROWS " + ROWS + " "), tail(out));
        assertTrue(out.matches("(?s).*MAXHEAP (\\d{7,8})\\b.*"), "heap limited to 32 MB: " + tail(out));

        Path file = dir.resolve(DB + ".big.000000001.sql");
        long size = Files.size(file);
        assertTrue(size > 80_000_000L, "the dump file is larger than the heap (" + size + " bytes)");
        long rows = 0;
        long idSum = 0;
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (line.startsWith("(")) {
                    rows++;
                    idSum += Long.parseLong(line.substring(1, line.indexOf(',')));
                }
            }
        }
        assertEquals(ROWS, rows);
        assertEquals((long) ROWS * (ROWS + 1) / 2, idSum);
        assertTrue(Files.exists(dir.resolve("metadata")));
    }

    private static String tail(String s) {
        List<String> lines = s.lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
    }
}
