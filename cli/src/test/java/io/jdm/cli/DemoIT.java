package io.jdm.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.cli.demo.Demo;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import io.jdm.embedded.ServerFlavor;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The demo end to end at a small size on each flavour: dump, load and sync under writes, then
 * verify. Each flavour's demo starts servers of its own, so the three run side by side.
 */
class DemoIT {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(ServerFlavor.class)
    @Execution(ExecutionMode.CONCURRENT) // the class ends when all three have: no other class overlaps
    void demoMigratesUnderWritesAndVerifies(ServerFlavor flavor) throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8);
        boolean ok = new Demo(new Demo.Options(2, 3000, 2, Duration.ofSeconds(3), Duration.ofMinutes(3), dir,
                flavor, flavor), out).run();
        String text = buf.toString(StandardCharsets.UTF_8);
        assertTrue(ok, text);
        assertTrue(text.contains("embedded " + flavor.label() + " source"), text);
        assertTrue(text.contains("demo.sbtest1  MATCH"), text);
        assertTrue(text.contains("demo.sbtest2  MATCH"), text);
        assertTrue(text.contains("lag is zero"), text);
    }
}
