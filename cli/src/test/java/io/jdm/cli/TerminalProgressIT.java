package io.jdm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jdm.embedded.Seq;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jdm dump} as a real process on a pseudo-terminal (util-linux {@code script}) redraws one
 * progress line with {@code \r} and ends it before the summary; the same dump on a {@code TERM=dumb}
 * terminal, or into a file, writes plain lines.
 */
class TerminalProgressIT {
    /** Redraws four times a second: a dump this long draws the bar a few times. */
    private static final int ROWS = 300_000;
    private static final Pattern BAR = Pattern.compile("\rdump \\[[#-]+\\] +(\\d+)% ([0-9.]+k?)/");

    @TempDir
    Path dir;

    @Test
    void aDumpRedrawsOneLineOnATerminalAndWritesPlainLinesElsewhere() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/script")), "no util-linux script to make a terminal");
        SqlServer source = TestServers.shared().source();
        SqlServer target = TestServers.shared().target();
        source.freshDatabase("tty_dump");
        source.execute("CREATE TABLE tty_dump.t (id INT PRIMARY KEY, v VARCHAR(200))",
                "INSERT INTO tty_dump.t SELECT seq, REPEAT('v', 150) FROM " + Seq.upTo(ROWS),
                "ANALYZE TABLE tty_dump.t");
        Path task = TestTasks.allMode(dir, "tty-dump", "jdm_meta_tty", source, "root", "", target, "tty_dump",
                "threads: 1, rows: 20000", "pool-size: 1", "worker-count: 1");

        String tty = onTerminal(task, "xterm");
        Matcher bars = BAR.matcher(tty);
        List<Integer> percents = new ArrayList<>();
        String lastDone = null;
        while (bars.find()) {
            percents.add(Integer.parseInt(bars.group(1)));
            lastDone = bars.group(2);
        }
        // at least the final bar; a slower dump redraws it several times (percent never going down)
        assertTrue(percents.size() >= 1, "no bar drawn in place with \\r:\n" + tty);
        // the percent is of the source's estimate, which may be a little off; the rows are exact
        assertEquals(TerminalProgress.amount(ROWS, false), lastDone, "the last bar is the finished dump:\n" + tty);
        for (int i = 1; i < percents.size(); i++) {
            assertTrue(percents.get(i) >= percents.get(i - 1), "the bar went back: " + percents + "\n" + tty);
        }
        int summary = tty.indexOf("INFO  [dump] dumped 1 tables, " + ROWS + " rows");
        int barBefore = tty.lastIndexOf("\rdump [", summary);
        assertTrue(summary > 0 && barBefore >= 0, "the summary follows a bar:\n" + tty);
        // the terminal turns each \n into \r\n: the bar's own end and every log line's
        assertTrue(tty.substring(barBefore + 1, summary).matches("dump [^\r\n]*\r\n\\d\\d:\\d\\d:\\d\\d "),
                "the bar ends with a newline and the summary starts a line of its own:\n" + tty);
        // a tick between the summary and the end of the command draws the bar again under it; the
        // command's end ends that one with a newline too
        int lastBar = tty.lastIndexOf("\rdump [");
        assertTrue(tty.substring(lastBar + 1).matches("(?s)dump [^\r\n]*\r\n.*"),
                "the last bar ends with a newline:\n" + tty);
        assertFalse(tty.contains("INFO  [dump] tables "), "the periodic progress line is the bar's job here:\n" + tty);
        assertFalse(Pattern.compile("\rdump 0 rows[^\r\n]*\r\n").matcher(tty).find(),
                "a bar with nothing done is wiped, not left above a line:\n" + tty);

        String dumb = onTerminal(task, "dumb");
        assertFalse(dumb.contains("\rdump "), "TERM=dumb gets plain lines:\n" + dumb);
        assertTrue(dumb.contains("INFO  [dump] dumped 1 tables, " + ROWS + " rows"), dumb);

        Path intoFile = dir.resolve("file.out");
        Process plain = JdmChild.start(intoFile, List.of(), Map.of("TERM", "xterm"), "dump", task.toString());
        assertTrue(plain.waitFor(60, TimeUnit.SECONDS), "jdm dump into a file did not end");
        String file = Files.readString(intoFile);
        assertEquals(0, plain.exitValue(), file);
        assertFalse(file.contains("\r"), file);
        assertTrue(file.contains("INFO  [dump] dumped 1 tables, " + ROWS + " rows"), file);
    }

    /** The output of {@code jdm dump TASK} run by {@code script} on a pseudo-terminal of type {@code term}. */
    private String onTerminal(Path task, String term) throws Exception {
        List<String> jdm = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Jdm.class.getName(), "dump", task.toString());
        Path out = dir.resolve(term + ".out");
        ProcessBuilder pb = new ProcessBuilder("/usr/bin/script", "-qec", shell(jdm), "/dev/null")
                .redirectErrorStream(true).redirectOutput(out.toFile());
        pb.environment().putAll(Map.of("TERM", term, "COLUMNS", "100"));
        Process p = pb.start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "jdm dump under script did not end");
        String text = Files.readString(out);
        assertEquals(0, p.exitValue(), text);
        return text;
    }

    /** {@code args} as one line of {@code sh}, each word single-quoted. */
    private static String shell(List<String> args) {
        StringBuilder b = new StringBuilder();
        for (String a : args) {
            b.append(b.length() == 0 ? "" : " ").append('\'').append(a.replace("'", "'\\''")).append('\'');
        }
        return b.toString();
    }
}
