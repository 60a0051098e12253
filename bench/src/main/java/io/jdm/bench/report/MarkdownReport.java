package io.jdm.bench.report;

import io.jdm.bench.result.BenchResults;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The report in the shape of DM's published benchmark tables: one table per sweep with the
 * median of every repetition and its spread (min–max), then jdm against each peer at the same
 * setting as a ratio of medians.
 */
final class MarkdownReport {
    private MarkdownReport() {
    }

    static String render(BenchResults r) {
        StringBuilder sb = new StringBuilder();
        sb.append("# ").append(title(r)).append("\n\n").append(runner(r)).append("\n\n");
        for (String n : r.notes()) {
            sb.append("- ").append(n).append('\n');
        }
        sb.append("\nEach cell is the median of ").append(r.repetitions())
                .append(" repetition(s); brackets give the spread (min–max).\n");
        List<Group> groups = Group.of(r.samples());
        for (String sweep : Columns.SWEEPS) {
            List<Group> gs = groups.stream().filter(g -> g.sweep().equals(sweep)).toList();
            if (!gs.isEmpty()) {
                table(sb, sweep, gs);
                ratios(sb, sweep, gs);
            }
        }
        return sb.toString();
    }

    /** The report's title; an in-JVM run says in it that it is a profiling aid. */
    static String title(BenchResults r) {
        boolean inJvm = r.runner().equals(BenchResults.IN_JVM);
        return "jdm bench: " + r.name() + (inJvm ? " (profiling aid: runner in-jvm)" : "");
    }

    /** What jdm's samples are, so no reader takes a profiling run for the figure. */
    static String runner(BenchResults r) {
        return r.runner().equals(BenchResults.IN_JVM)
                ? "Runner in-jvm, a profiling aid: jdm's samples are its units run inside the bench's warm JVM (no "
                + "JVM start, JIT already warm), not the command a user runs. The figures come from runner: process."
                : "Runner process: every jdm sample of the dump, load, run, verify and backlog sync sweeps is a whole `jdm` "
                + "process started by the launcher as a user starts it, measured by GNU time like the peers. Every "
                + "sample, of any tool, starts once the servers it can see are quiet (under a tenth of a core over half "
                + "a second, waiting at most a minute), not while they still flush and purge after the one before.";
    }

    private static void table(StringBuilder sb, String sweep, List<Group> gs) {
        sb.append("\n## ").append(sweep).append("\n\n");
        List<String> params = new ArrayList<>(gs.stream().flatMap(g -> g.params().keySet().stream()).distinct()
                .toList());
        boolean mixes = gs.stream().anyMatch(g -> !g.mix().equals("-"));
        List<String> head = new ArrayList<>();
        if (mixes) {
            head.add("workload");
        }
        head.addAll(params);
        head.add("tool");
        Columns.of(sweep).forEach(c -> head.add(c.header()));
        head.add("n");
        row(sb, head);
        row(sb, head.stream().map(h -> "---").toList());
        for (Group g : gs) {
            List<String> cells = new ArrayList<>();
            if (mixes) {
                cells.add(g.mix());
            }
            params.forEach(p -> cells.add(g.params().containsKey(p) ? String.valueOf(g.params().get(p)) : "-"));
            cells.add(g.tool());
            for (Columns.Col c : Columns.of(sweep)) {
                double m = g.median(c.metric());
                cells.add(Double.isNaN(m) ? "-" : g.samples().size() == 1 ? Figures.fmt(m)
                        : Figures.fmt(m) + " [" + Figures.fmt(g.min(c.metric())) + "–" + Figures.fmt(g.max(c.metric())) + "]");
            }
            cells.add(String.valueOf(g.samples().size()));
            row(sb, cells);
        }
    }

    private static void ratios(StringBuilder sb, String sweep, List<Group> gs) {
        List<Ratio> rs = Ratio.of(sweep, gs);
        if (rs.isEmpty()) {
            return;
        }
        sb.append("\n### ").append(sweep).append(": jdm vs peers (").append(Columns.main(sweep).header())
                .append(", medians)\n\n");
        row(sb, List.of("setting", "peer", "jdm", "peer", "jdm / peer"));
        row(sb, List.of("---", "---", "---", "---", "---"));
        for (Ratio r : rs) {
            row(sb, List.of((r.mix().equals("-") ? "" : r.mix() + " ") + r.setting(), r.peer(), Figures.fmt(r.jdm()),
                    Figures.fmt(r.other()), Double.isNaN(r.ratio()) ? "-" : String.format(Locale.ROOT, "%.2fx",
                            r.ratio())));
        }
    }

    private static void row(StringBuilder sb, List<String> cells) {
        sb.append("| ").append(String.join(" | ", cells)).append(" |\n");
    }
}
