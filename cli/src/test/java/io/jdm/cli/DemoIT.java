package io.jdm.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.cli.demo.Demo;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The demo end to end at a small size: dump, load and sync under writes, then verify. */
class DemoIT {
    @TempDir
    Path dir;

    @Test
    void demoMigratesUnderWritesAndVerifies() throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8);
        boolean ok = new Demo(new Demo.Options(2, 3000, 2, Duration.ofSeconds(3), Duration.ofMinutes(3), dir), out).run();
        String text = buf.toString(StandardCharsets.UTF_8);
        assertTrue(ok, text);
        assertTrue(text.contains("demo.sbtest1  MATCH"), text);
        assertTrue(text.contains("demo.sbtest2  MATCH"), text);
        assertTrue(text.contains("lag is zero"), text);
    }
}
