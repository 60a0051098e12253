package io.jdm.verify;

import io.jdm.common.schema.Column;
import io.jdm.verify.VerifyReport.ColumnDiff;
import io.jdm.verify.VerifyReport.DiffKind;
import io.jdm.verify.VerifyReport.RowDiff;
import java.util.ArrayList;
import java.util.List;

/** Turns the merge's differing rows into report lines and fix statements. */
final class DiffRecorder implements RowMerger.Sink {
    private final TablePlan plan;
    private final TableTally tally;
    private final FixSql.TableFix fix;

    DiffRecorder(TablePlan plan, TableTally tally, FixSql.TableFix fix) {
        this.plan = plan;
        this.tally = tally;
        this.fix = fix;
    }

    @Override
    public void missing(Object[] source) {
        tally.diff(new RowDiff(DiffKind.MISSING, key(plan.sourceColumns, source), List.of()));
        if (fix != null) {
            fix.put(source);
        }
    }

    @Override
    public void extra(Object[] target) {
        tally.diff(new RowDiff(DiffKind.EXTRA, key(plan.targetColumns, target), List.of()));
        if (fix != null) {
            fix.delete(target);
        }
    }

    @Override
    public void changed(Object[] source, Object[] target, List<Integer> columns) {
        List<ColumnDiff> cols = new ArrayList<>();
        for (int i : columns) {
            if (source[i] instanceof TypedJson s && target[i] instanceof TypedJson t) { // same text, other types
                cols.add(new ColumnDiff(plan.sourceColumns.get(i).name(), s.showAgainst(t), t.showAgainst(s)));
                continue;
            }
            cols.add(new ColumnDiff(plan.sourceColumns.get(i).name(), Values.show(plan.sourceColumns.get(i), source[i]),
                    Values.show(plan.targetColumns.get(i), target[i])));
        }
        tally.diff(new RowDiff(DiffKind.CHANGED, key(plan.sourceColumns, source), cols));
        if (fix != null) {
            fix.put(source);
        }
    }

    private String key(List<Column> columns, Object[] row) {
        return key(plan, columns, row);
    }

    /** {@code id=5} or {@code a=1, b='x'}; every column when there is no key. */
    static String key(TablePlan plan, List<Column> columns, Object[] row) {
        StringBuilder sb = new StringBuilder();
        for (int i : plan.orderColumns()) {
            sb.append(sb.length() == 0 ? "" : ", ").append(columns.get(i).name()).append('=')
                    .append(Values.show(columns.get(i), row[i]));
        }
        return sb.toString();
    }
}
