package io.jdm.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jdm.bench.result.Sample;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A whole process measured from outside: wall, CPU and peak RSS as GNU time reports them. */
class MeasuredTest {

    @Test
    void wallCpuAndPeakMemoryOfAProcessAndItsChildren() throws Exception {
        assumeTrue(Measured.available(), "GNU time (/usr/bin/time) is not installed");
        // children that burn CPU for a moment and hold a 64 MiB buffer, then a pause
        Measured m = Measured.run(List.of("sh", "-c",
                "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; "
                        + "dd if=/dev/zero of=/dev/null bs=64M count=1 2>/dev/null; sleep 0.3; echo done"),
                Map.of(), Duration.ofMinutes(1));
        assertTrue(m.wallSeconds() >= 0.3, "wall " + m.wallSeconds());
        assertTrue(m.cpuSeconds() > 0.05, "cpu " + m.cpuSeconds());
        assertTrue(m.peakRssMb() >= 64, "peak RSS " + m.peakRssMb());
        assertEquals("done", m.output().strip());
        Map<String, Double> metrics = m.metrics(1000, 2_000_000);
        assertEquals(m.cpuSeconds(), metrics.get(Sample.CPU_S));
        assertEquals(1000 / m.wallSeconds(), metrics.get(Sample.ROWS_PER_S), 1e-9);
    }

    @Test
    void serverCpuIsUserPlusSystemTicksOfProcStat() {
        // a mariadbd's /proc/<pid>/stat; the command name may hold spaces and parentheses
        String stat = "4242 (mariadbd (x)) S 1 4242 4242 0 -1 4194560 9000 0 12 0 1234 567 3 4 20 0 30 0 1000 "
                + "2000000000 50000 18446744073709551615 1 1 0 0 0 0 0 4096 1260 0 0 0 17 1 0 0 0 0 0";
        assertEquals(18.01, ServerCpu.ofStat(stat), 1e-9);
        assertTrue(Double.isNaN(ServerCpu.ofStat(null)));
        assertTrue(Double.isNaN(ServerCpu.ofStat("4242 (cut")));
    }

    @Test
    void aFailingProcessFailsTheSampleWithItsOutput() {
        assumeTrue(Measured.available(), "GNU time (/usr/bin/time) is not installed");
        IOException e = assertThrows(IOException.class, () -> Measured.run(List.of("sh", "-c",
                "echo refused by the test >&2; exit 3"), Map.of(), Duration.ofMinutes(1)));
        assertTrue(e.getMessage().contains("exited with 3") && e.getMessage().contains("refused by the test"),
                e.getMessage());
    }

    @Test
    void aSampleWaitsForTheServersToBeQuietButNotForever() throws Exception {
        double[] busy = {0, 0, 0}; // servers still working off the sample before for two half-seconds
        int[] reads = {0};
        long t0 = System.nanoTime();
        ServerCpu.awaitQuiet(() -> reads[0]++ < 3 ? (busy[0] += 0.4) : busy[0], 60_000);
        long waited = (System.nanoTime() - t0) / 1_000_000;
        assertEquals(4, reads[0], "read until a half-second passed under a tenth of a core");
        assertTrue(waited >= 1400 && waited < 5000, "waited " + waited + " ms");

        t0 = System.nanoTime();
        ServerCpu.awaitQuiet(() -> busy[0] += 1, 1200); // never quiet: gives up at the limit
        waited = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(waited >= 1000 && waited < 3000, "waited " + waited + " ms");

        t0 = System.nanoTime();
        ServerCpu.awaitQuiet(() -> Double.NaN, 60_000); // servers given by address: nothing to wait for
        assertTrue((System.nanoTime() - t0) / 1_000_000 < 100);
    }
}
