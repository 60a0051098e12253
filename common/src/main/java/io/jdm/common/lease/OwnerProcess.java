package io.jdm.common.lease;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * The process a lease row names, with what it takes to tell from this host whether it still runs: a
 * pid names one process only within one pid namespace of one boot of one kernel, and only until it
 * exits and the number is handed out again. So beside host and pid the row holds
 * <ul>
 *   <li>{@code pidSpace}: the kernel's boot id ({@code /proc/sys/kernel/random/boot_id}) and the pid
 *       namespace ({@code /proc/self/ns/pid}) the pid is counted in, and</li>
 *   <li>{@code start}: when the process started, in clock ticks since boot (field 22 of
 *       {@code /proc/PID/stat}). Not {@code ProcessHandle.Info.startInstant()}: that adds the boot's
 *       wall-clock time as each JVM reads it, which moves when the clock is stepped (an NTP step
 *       after boot, say), so a live owner could seem to have started at another time.</li>
 * </ul>
 * Another host, another boot (a pod of the same name on another node, or this one rebooted) or
 * another pid namespace (a restarted container) cannot see the owner's process at all: there the
 * owner counts as alive and its lease runs out by itself. Where there is no such {@code /proc} (not
 * Linux, or a {@code /proc} of another pid namespace), both are null and the same holds.
 */
record OwnerProcess(String host, long pid, String pidSpace, Long start) {

    OwnerProcess {
        Objects.requireNonNull(host, "host");
    }

    /** This process. */
    static OwnerProcess current() {
        long pid = ProcessHandle.current().pid();
        String space = pidSpace(pid);
        Long start = space == null ? null
                : Stat.read(pid).filter(s -> s != Stat.UNREADABLE).map(Stat::start).orElse(null);
        return new OwnerProcess(localHost(), pid, start == null ? null : space, start);
    }

    /**
     * Whether {@code self} can see that this owner no longer runs: the same host name, boot and pid
     * namespace as {@code self}, and its pid names no process, a finished one (a zombie), or one
     * that started at another time (the pid was handed out again). False whenever it cannot tell.
     */
    boolean isGoneSeenFrom(OwnerProcess self) {
        if (!host.equals(self.host) || pidSpace == null || start == null || !pidSpace.equals(self.pidSpace)) {
            return false;
        }
        return Stat.read(pid).map(s -> s.isNot(start)).orElse(true);
    }

    /** What a person reads: {@code host pid N}. */
    @Override
    public String toString() {
        return host + " pid " + pid;
    }

    /**
     * The boot id and pid namespace of this process, or null where {@code /proc} is missing or is
     * not this pid namespace's (its {@code self} is not this pid).
     */
    private static String pidSpace(long pid) {
        try {
            if (!Files.readSymbolicLink(Path.of("/proc/self")).toString().equals(Long.toString(pid))) {
                return null;
            }
            String boot = Files.readString(Path.of("/proc/sys/kernel/random/boot_id"), StandardCharsets.US_ASCII)
                    .strip();
            String ns = Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString();
            return boot.isEmpty() ? null : boot + " " + ns;
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return null;
        }
    }

    static String localHost() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "unknown-host";
        }
    }

    /** The parts of {@code /proc/PID/stat} this needs: the state and the start in ticks since boot. */
    record Stat(char state, long start) {
        /** A process whose entry could not be read: it counts as the recorded one. */
        private static final Stat UNREADABLE = new Stat('?', -1);

        /**
         * Whether this is not the process that started at {@code recorded}: it started at another
         * time, or it has exited and only its entry is left (Z, a zombie; X, dead).
         */
        boolean isNot(long recorded) {
            if (this == UNREADABLE) {
                return false;
            }
            return state == 'Z' || state == 'X' || start != recorded;
        }

        /** Empty when no process has this pid. */
        static Optional<Stat> read(long pid) {
            Path stat = Path.of("/proc", Long.toString(pid), "stat");
            String text;
            try {
                text = Files.readString(stat, StandardCharsets.UTF_8);
            } catch (NoSuchFileException e) {
                return Optional.empty();
            } catch (IOException e) {
                // exited while being read (ESRCH): gone; otherwise it cannot be told apart, so it counts as alive
                return Files.exists(stat) ? Optional.of(UNREADABLE) : Optional.empty();
            }
            // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ')'
            String[] f = text.substring(text.lastIndexOf(')') + 2).strip().split(" ");
            return Optional.of(new Stat(f[0].charAt(0), Long.parseLong(f[19])));
        }
    }
}
