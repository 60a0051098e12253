package io.jdm.verify;

import io.jdm.common.position.BinlogPosition;
import io.jdm.common.sql.TableName;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What a verify run found, table by table.
 *
 * @param snapshotPosition the source position compared at, null without a snapshot
 */
public record VerifyReport(List<TableResult> tables, Duration elapsed, BinlogPosition snapshotPosition) {
    public VerifyReport {
        tables = List.copyOf(tables);
        Objects.requireNonNull(elapsed, "elapsed");
    }

    /** Outcome of one table. */
    public enum Result { MATCH, DIFFERENT, ERROR }

    /**
     * How one row differs: only in the source, only in the target, or in both with other values; for a
     * table merged from several shards also a key that two shards both hold (DM needs keys unique
     * across the shards of a merge, else one shard's row overwrites the other's).
     */
    public enum DiffKind { MISSING, EXTRA, CHANGED, COLLISION }

    /** One column of a changed row, values as SQL literals (long ones shortened). */
    public record ColumnDiff(String column, String source, String target) {
    }

    /**
     * One differing row.
     *
     * @param key the row's key as {@code col=literal} pairs (all columns for a table without a key)
     * @param columns the differing columns of a CHANGED row, empty otherwise
     * @param detail for a merged table, which shard the row comes from (or, for a COLLISION, which
     *     shards hold the key); null otherwise
     */
    public record RowDiff(DiffKind kind, String key, List<ColumnDiff> columns, String detail) {
        public RowDiff {
            columns = List.copyOf(columns);
        }

        public RowDiff(DiffKind kind, String key, List<ColumnDiff> columns) {
            this(kind, key, columns, null);
        }
    }

    /**
     * One table.
     *
     * @param chunks how many chunks the table was split into
     * @param chunksDifferent chunks whose checksums differed (a chunk can differ only in formatting,
     *     so this may be above zero for a table that matches)
     * @param rows the first differing rows, at most the configured number; the counts are complete
     * @param error the one-line reason for {@link Result#ERROR}, else null
     * @param collisions keys held by more than one shard of a merged table
     * @param shards for a target table merged from several source tables, those tables (with their
     *     source when the task has several), {@code source} being the first; empty otherwise.
     *     {@code rowsSource} is then the sum over the shards.
     * @param rowsFiltered the source rows the task does not copy (its expression filters' insert
     *     rules are TRUE on them): not compared, and not in {@code rowsSource}
     */
    public record TableResult(TableName source, TableName target, Result result, long rowsSource, long rowsTarget,
                              long chunks, long chunksDifferent, long missing, long extra, long changed,
                              List<RowDiff> rows, String error, long collisions, List<String> shards,
                              long rowsFiltered) {
        public TableResult {
            rows = List.copyOf(rows);
            shards = List.copyOf(shards);
        }

        public TableResult(TableName source, TableName target, Result result, long rowsSource, long rowsTarget,
                           long chunks, long chunksDifferent, long missing, long extra, long changed,
                           List<RowDiff> rows, String error) {
            this(source, target, result, rowsSource, rowsTarget, chunks, chunksDifferent, missing, extra, changed,
                    rows, error, 0, List.of(), 0);
        }

        public boolean merged() {
            return !shards.isEmpty();
        }

        public long differingRows() {
            return missing + extra + changed + collisions;
        }
    }

    /** True when every table matches. */
    public boolean matches() {
        return tables.stream().allMatch(t -> t.result() == Result.MATCH);
    }

    /** The CLI's exit code: 0 everything matches, 1 something differs, 2 a table could not be compared. */
    public int exitCode() {
        if (tables.stream().anyMatch(t -> t.result() == Result.ERROR)) {
            return 2;
        }
        return matches() ? 0 : 1;
    }

    /** The table compared from {@code source}, or the merged table {@code source} names the target of. */
    public TableResult table(TableName source) {
        return tables.stream().filter(t -> t.source().equals(source) || t.merged() && t.target().equals(source))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no table " + source + " in the report"));
    }

    /** A fixed-width table for a terminal, one line per table, then the listed rows of those that differ. */
    public String renderTable() {
        return ReportRenderer.table(this);
    }

    /** The whole report as a JSON document. */
    public String toJson() {
        return ReportRenderer.json(this);
    }

    /** One line: tables matched/different/error, rows and seconds. */
    public String summaryLine() {
        return ReportRenderer.summary(this);
    }
}
