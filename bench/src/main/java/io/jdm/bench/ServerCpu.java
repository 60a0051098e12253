package io.jdm.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * CPU seconds (user + system) used so far by the MariaDB or MySQL servers this JVM started (the
 * embedded pair), read from {@code /proc}: what a tool costs the servers it talks to, which its own
 * CPU does not show (a dump that splits chunks by many small queries moves that work to the
 * source). NaN when no such server is a descendant (servers given by address) or there is no
 * {@code /proc}; the sample then has no server CPU rather than a wrong one.
 */
final class ServerCpu {
    /** Clock ticks per second of {@code /proc/<pid>/stat}: 100 on Linux. */
    private static final double TICKS = 100.0;

    private ServerCpu() {
    }

    static double seconds() {
        List<ProcessHandle> servers = ProcessHandle.current().descendants()
                .filter(p -> p.info().command().map(c -> c.endsWith("mariadbd") || c.endsWith("mysqld")).orElse(false))
                .toList();
        double sum = 0;
        for (ProcessHandle p : servers) {
            sum += ofStat(read(p.pid()));
        }
        return servers.isEmpty() ? Double.NaN : sum;
    }

    /**
     * Waits until the servers are quiet: under a tenth of a core over half a second, at most
     * {@code maxMillis}. What a sample leaves behind (InnoDB flushing its pages, purging its undo)
     * would otherwise run during the next sample, of whichever tool comes next; a user's migration
     * starts on servers at rest. Returns at once when the servers cannot be seen.
     */
    static void awaitQuiet(long maxMillis) throws InterruptedException {
        awaitQuiet(ServerCpu::seconds, maxMillis);
    }

    /** {@link #awaitQuiet(long)} with the servers' CPU seconds read from {@code cpu}. */
    static void awaitQuiet(java.util.function.DoubleSupplier cpu, long maxMillis) throws InterruptedException {
        long deadline = System.nanoTime() + maxMillis * 1_000_000L;
        double before = cpu.getAsDouble();
        while (!Double.isNaN(before) && System.nanoTime() < deadline) {
            Thread.sleep(500);
            double now = cpu.getAsDouble();
            if (Double.isNaN(now) || now - before < 0.05) {
                return;
            }
            before = now;
        }
    }

    /** utime + stime of one {@code /proc/<pid>/stat} line; NaN when it cannot be read. */
    static double ofStat(String stat) {
        if (stat == null) {
            return Double.NaN;
        }
        try {
            // after the command name (which may hold spaces): field 3 (state) first, utime and stime are 14 and 15
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / TICKS;
        } catch (RuntimeException e) {
            return Double.NaN;
        }
    }

    private static String read(long pid) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
