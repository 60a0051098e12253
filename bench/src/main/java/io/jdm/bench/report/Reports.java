package io.jdm.bench.report;

import io.jdm.bench.result.BenchResults;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a run's files into one directory: report.md, report.html, samples.csv, lag.csv and
 * ratios.csv (jdm against each peer at the same setting, medians).
 */
public final class Reports {
    /** The files written. */
    public record Written(Path markdown, Path html, Path samplesCsv, Path lagCsv, Path ratiosCsv) {
    }

    private Reports() {
    }

    public static String markdown(BenchResults r) {
        return MarkdownReport.render(r);
    }

    public static String html(BenchResults r) {
        return HtmlReport.render(r, MarkdownReport.render(r));
    }

    public static Written write(BenchResults r, Path dir) throws IOException {
        Files.createDirectories(dir);
        String md = MarkdownReport.render(r);
        Written w = new Written(dir.resolve("report.md"), dir.resolve("report.html"), dir.resolve("samples.csv"),
                dir.resolve("lag.csv"), dir.resolve("ratios.csv"));
        atomic(w.markdown(), md);
        atomic(w.html(), HtmlReport.render(r, md));
        atomic(w.samplesCsv(), CsvReport.samples(r.samples()));
        atomic(w.lagCsv(), CsvReport.lags(r.lags()));
        List<Group> groups = Group.of(r.samples());
        List<Ratio> ratios = new ArrayList<>();
        Columns.SWEEPS.forEach(sweep -> ratios.addAll(Ratio.of(sweep, groups)));
        atomic(w.ratiosCsv(), CsvReport.ratios(ratios));
        return w;
    }

    /** Write then rename, so a report is never seen half written (and an interrupted run keeps the last). */
    private static void atomic(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
