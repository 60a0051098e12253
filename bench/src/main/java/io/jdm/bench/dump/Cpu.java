package io.jdm.bench.dump;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU seconds used so far by this JVM, by its reaped child processes and by the MariaDB servers it
 * started, read from {@code /proc} (Linux; NaN elsewhere). Clock ticks are taken as 100 per second,
 * the Linux default.
 */
final class Cpu {
    private static final double TICKS = 100.0;

    private Cpu() {
    }

    /** {self, reaped children, mariadbd descendants} in CPU seconds. */
    static double[] sample() {
        double self = Double.NaN;
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            self = os.getProcessCpuTime() / 1e9;
        }
        String[] me = stat(ProcessHandle.current().pid());
        double children = me == null ? Double.NaN : (Long.parseLong(me[13]) + Long.parseLong(me[14])) / TICKS;
        double server = ProcessHandle.current().descendants()
                .filter(p -> p.info().command().map(c -> c.endsWith("mariadbd") || c.endsWith("mysqld")).orElse(false))
                .mapToDouble(p -> {
                    String[] f = stat(p.pid());
                    return f == null ? Double.NaN : (Long.parseLong(f[11]) + Long.parseLong(f[12])) / TICKS;
                }).sum();
        return new double[] {self, children, server};
    }

    /**
     * CPU seconds so far of this JVM's threads, summed by name with digits dropped ({@code GC Thread#},
     * {@code C2 CompilerThre}, {@code bench-dump-wor}): where the JVM's own CPU goes.
     */
    static java.util.Map<String, Double> byThread() {
        java.util.Map<String, Double> out = new java.util.TreeMap<>();
        try (var tasks = Files.list(Path.of("/proc/self/task"))) {
            tasks.forEach(t -> {
                try {
                    String s = Files.readString(t.resolve("stat"));
                    String name = s.substring(s.indexOf('(') + 1, s.lastIndexOf(')')).replaceAll("[0-9]", "");
                    String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
                    out.merge(name, (Long.parseLong(f[11]) + Long.parseLong(f[12])) / TICKS, Double::sum);
                } catch (IOException | RuntimeException e) {
                    // the thread ended meanwhile
                }
            });
        } catch (IOException e) {
            // no /proc: nothing to report
        }
        return out;
    }

    /** The fields of {@code /proc/<pid>/stat} after the command name: [0] is field 3 (state). */
    private static String[] stat(long pid) {
        try {
            String s = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return s.substring(s.lastIndexOf(')') + 2).split(" ");
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
