package io.jdm.verify;

import io.jdm.verify.VerifyReport.Result;
import io.jdm.verify.VerifyReport.RowDiff;
import io.jdm.verify.VerifyReport.TableResult;
import java.util.ArrayList;
import java.util.List;

/** One table's running totals, added to by every worker that compares one of its chunks. */
final class TableTally {
    private final TablePair pair;
    private final int maxRows;
    private long chunks;
    private long rowsSource;
    private long rowsTarget;
    private long filtered;
    private long chunksDifferent;
    private long missing;
    private long extra;
    private long changed;
    private long collisions;
    private final List<String> shards;
    private final List<RowDiff> rows = new ArrayList<>();
    private String error;

    TableTally(TablePair pair, int maxRows) {
        this(pair, maxRows, List.of());
    }

    /** @param shards the source tables merged into {@code pair.target()}; empty for a plain pair */
    TableTally(TablePair pair, int maxRows, List<String> shards) {
        this.pair = pair;
        this.maxRows = maxRows;
        this.shards = List.copyOf(shards);
    }

    TablePair pair() {
        return pair;
    }

    synchronized void planned(long n) {
        chunks += n;
    }

    /** @param filtered the chunk's source rows the task does not copy, not among {@code source} */
    synchronized void chunkDone(long source, long target, long filtered, boolean checksumDiffered) {
        rowsSource += source;
        rowsTarget += target;
        this.filtered += filtered;
        if (checksumDiffered) {
            chunksDifferent++;
        }
    }

    synchronized void diff(RowDiff d) {
        switch (d.kind()) {
            case MISSING -> missing++;
            case EXTRA -> extra++;
            case CHANGED -> changed++;
            case COLLISION -> collisions++;
            default -> throw new IllegalStateException(d.kind().name());
        }
        if (rows.size() < maxRows) {
            rows.add(d);
        }
    }

    /** The first failure is the one reported. */
    synchronized void fail(String message) {
        if (error == null) {
            error = message;
        }
    }

    synchronized boolean failed() {
        return error != null;
    }

    synchronized TableResult result() {
        Result r = error != null ? Result.ERROR
                : missing + extra + changed + collisions > 0 ? Result.DIFFERENT : Result.MATCH;
        return new TableResult(pair.source(), pair.target(), r, rowsSource, rowsTarget, chunks, chunksDifferent,
                missing, extra, changed, rows, error, collisions, shards, filtered);
    }
}
