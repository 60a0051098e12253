package io.jdm.cli;

import ch.qos.logback.classic.Level;
import io.jdm.common.util.NamedThreadFactory;
import io.jdm.dump.DumpMetrics;
import io.jdm.load.LoadMetrics;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.LoggerFactory;

/**
 * The progress of a one-shot {@code jdm dump} or {@code jdm load} as one line redrawn in place
 * with {@code \r} when standard error is a terminal, in place of the unit's progress log line every
 * few seconds. Anywhere else (a pipe, a file, CI, {@code --log-json}, {@code TERM=dumb}) it does
 * nothing and the plain lines stay as they are: a {@code \r} in a log file is noise.
 *
 * <p>It reads the unit's own metrics, and owns standard error while it runs: any other line
 * written there (a log line at any level, the unit's summary) first ends the bar with a newline,
 * so it prints whole on its own line; the bar is drawn again under it at the next tick.
 */
final class TerminalProgress implements AutoCloseable {
    /** Often enough to look live, seldom enough that a slow terminal or a recorded session is not flooded. */
    private static final long REDRAW_MILLIS = 250;
    private static final int DEFAULT_WIDTH = 80;
    private static final int MIN_BAR = 10;
    private static final TerminalProgress NONE = new TerminalProgress();

    /** What the bar shows: {@code done} of {@code total} (0 or less: not known), at {@code rate} per second. */
    record Reading(long done, long total, double rate) {
    }

    private final String name;
    private final boolean bytes;
    private final Supplier<Reading> source;
    private final int width;
    private final PrintStream terminal;
    private final ScheduledExecutorService timer;
    private final ch.qos.logback.classic.Logger progressLog;
    private final Level progressLevel;
    private final Object lock = new Object();
    private boolean drawn;
    private int lastLength;

    private TerminalProgress() {
        name = null;
        bytes = false;
        source = null;
        width = 0;
        terminal = null;
        timer = null;
        progressLog = null;
        progressLevel = null;
    }

    private TerminalProgress(String task, String name, boolean bytes, Supplier<Reading> source) {
        this.name = name;
        this.bytes = bytes;
        this.source = source;
        this.width = width();
        this.terminal = System.err;
        // the periodic "[dump] tables 3/9, ..." line says what the bar says: not both
        this.progressLog = (ch.qos.logback.classic.Logger) LoggerFactory.getLogger("jdm.progress");
        this.progressLevel = progressLog.getLevel();
        progressLog.setLevel(Level.WARN);
        System.setErr(new PrintStream(new LineGuard(), true, StandardCharsets.UTF_8));
        timer = Executors.newSingleThreadScheduledExecutor(new NamedThreadFactory(task, name, "bar", true));
        timer.scheduleAtFixedRate(this::redraw, REDRAW_MILLIS, REDRAW_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** The bar of a dump: rows done of the source's estimate. */
    static TerminalProgress dump(String task, DumpMetrics m) {
        if (!attached()) {
            return NONE;
        }
        return new TerminalProgress(task, "dump", false, () -> {
            double s = m.seconds();
            return new Reading(m.rows(), m.estimatedRows(), s <= 0 ? 0 : m.rows() / s);
        });
    }

    /** The bar of a load: bytes of the dump loaded (an earlier run's included) of all of its bytes. */
    static TerminalProgress load(String task, LoadMetrics m) {
        if (!attached()) {
            return NONE;
        }
        return new TerminalProgress(task, "load", true,
                () -> new Reading(m.finishedBytes(), m.totalBytes(), m.recentBytesPerSecond()));
    }

    /**
     * True when standard error is a terminal that understands {@code \r}. {@code System.console()}
     * says that standard input and output are; where the system tells, standard error must be one
     * too, or a {@code 2>log} would collect the bar.
     */
    static boolean attached() {
        if (System.console() == null || LogFormat.isJson() || "dumb".equals(System.getenv("TERM"))) {
            return false;
        }
        Path fd2 = Path.of("/proc/self/fd/2");
        if (!Files.isSymbolicLink(fd2)) {
            return true;
        }
        try {
            String to = Files.readSymbolicLink(fd2).toString();
            return to.startsWith("/dev/pts/") || to.startsWith("/dev/tty") || to.equals("/dev/console");
        } catch (IOException | UnsupportedOperationException e) {
            return true;
        }
    }

    /** Ends the bar with its last numbers and a newline (unless a line under it ended it already). */
    @Override
    public void close() {
        if (this == NONE) {
            return;
        }
        timer.shutdownNow();
        synchronized (lock) {
            System.setErr(terminal);
            progressLog.setLevel(progressLevel);
            finishLine();
        }
    }

    private void redraw() {
        synchronized (lock) {
            try {
                String line = render(name, source.get(), bytes, width);
                int pad = Math.max(0, lastLength - line.length());
                terminal.print("\r" + line + " ".repeat(pad));
                terminal.flush();
                lastLength = line.length();
                drawn = true;
            } catch (RuntimeException e) {
                // a bar that cannot be drawn is no reason to fail the unit: the summary still comes
                LoggerFactory.getLogger(TerminalProgress.class).debug("progress bar failed", e);
            }
        }
    }

    /**
     * Under {@link #lock}: the bar, if it is on screen, brought up to date and ended; a bar that
     * shows nothing done yet (a snapshot still opening) is wiped instead, to leave no empty bars above.
     */
    private void finishLine() {
        if (!drawn) {
            return;
        }
        if (source.get().done() == 0) {
            terminal.print("\r" + " ".repeat(lastLength) + "\r");
        } else {
            redraw();
            terminal.print("\n");
        }
        terminal.flush();
        drawn = false;
        lastLength = 0;
    }

    /** Standard error while the bar is up: whatever is written there starts on a line of its own. */
    private final class LineGuard extends OutputStream {
        @Override
        public void write(int b) {
            synchronized (lock) {
                finishLine();
                terminal.write(b);
            }
        }

        @Override
        public void write(byte[] b, int off, int len) {
            synchronized (lock) {
                finishLine();
                terminal.write(b, off, len);
            }
        }

        @Override
        public void flush() {
            terminal.flush();
        }
    }

    /** The terminal's width from {@code COLUMNS} (set by most shells), else 80. */
    private static int width() {
        try {
            int w = Integer.parseInt(System.getenv().getOrDefault("COLUMNS", ""));
            return w >= 20 ? w : DEFAULT_WIDTH;
        } catch (NumberFormatException e) {
            return DEFAULT_WIDTH;
        }
    }

    /**
     * One line, shorter than {@code width} so it never wraps (a wrapped line cannot be redrawn with
     * {@code \r}): {@code dump [#####-----]  42% 1.2M/2.9M rows, 51.2k rows/s, ETA 0:34}. With no
     * total known: no bar, percent or ETA.
     */
    static String render(String name, Reading r, boolean bytes, int width) {
        String unit = bytes ? "" : " rows";
        String rate = amount(r.rate(), bytes) + (bytes ? "/s" : " rows/s");
        if (r.total() <= 0) {
            return fit(name + " " + amount(r.done(), bytes) + unit + ", " + rate, width);
        }
        double fraction = Math.min(1.0, Math.max(0.0, (double) r.done() / r.total()));
        String tail = String.format(Locale.ROOT, " %3d%% %s/%s%s, %s, ETA %s", (int) Math.floor(fraction * 100),
                amount(r.done(), bytes), amount(r.total(), bytes), unit, rate, eta(r));
        int bar = width - 1 - name.length() - 3 - tail.length();
        if (bar < MIN_BAR) {
            return fit(name + tail, width);
        }
        int filled = (int) Math.round(fraction * bar);
        return name + " [" + "#".repeat(filled) + "-".repeat(bar - filled) + "]" + tail;
    }

    private static String fit(String line, int width) {
        return line.length() < width ? line : line.substring(0, width - 1);
    }

    /** {@code m:ss} or {@code h:mm:ss} left at this rate; {@code --:--} without a rate. */
    static String eta(Reading r) {
        long left = r.total() - r.done();
        if (left <= 0) {
            return "0:00";
        }
        if (r.rate() <= 0) {
            return "--:--";
        }
        long s = (long) Math.ceil(left / r.rate());
        if (s >= 100 * 3600) {
            return "--:--";
        }
        return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }

    /** Rows as 950, 12.3k, 4.5M, 1.2G; bytes as 950 B, 12.3 kB, 4.5 MB (powers of 1000, as the summary's MB). */
    static String amount(double n, boolean bytes) {
        String[] suffix = bytes ? new String[] {" B", " kB", " MB", " GB", " TB"} : new String[] {"", "k", "M", "G", "T"};
        int i = 0;
        while (Math.abs(n) >= 999.95 && i < suffix.length - 1) {
            n /= 1000;
            i++;
        }
        return i == 0 ? String.format(Locale.ROOT, "%.0f%s", n, suffix[0])
                : String.format(Locale.ROOT, "%.1f%s", n, suffix[i]);
    }
}
