package io.jdm.load;

import io.jdm.common.sql.TableName;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The order in which files are handed to the pool. Files, not tables, are scheduled, interleaved
 * across tables: round one takes the first file of every table (biggest table first), round two
 * the second, and so on. A small table is then loaded in the first round instead of waiting
 * behind a big one, and a big table's files still load in parallel.
 */
final class LoadPlan {
    private LoadPlan() {
    }

    static List<DumpDirectory.DataFile> order(List<DumpDirectory.DataFile> files, Map<String, LoaderCheckpoint.Row> done) {
        Map<TableName, List<DumpDirectory.DataFile>> byTable = new LinkedHashMap<>();
        for (DumpDirectory.DataFile f : files) {
            LoaderCheckpoint.Row row = done.get(f.name());
            if (row == null || !row.finished()) {
                byTable.computeIfAbsent(f.source(), t -> new ArrayList<>()).add(f);
            }
        }
        List<List<DumpDirectory.DataFile>> tables = new ArrayList<>(byTable.values());
        tables.sort(Comparator.comparingLong((List<DumpDirectory.DataFile> l) ->
                l.stream().mapToLong(DumpDirectory.DataFile::size).sum()).reversed());
        int total = tables.stream().mapToInt(List::size).sum();
        List<DumpDirectory.DataFile> out = new ArrayList<>(total);
        for (int round = 0; out.size() < total; round++) {
            for (List<DumpDirectory.DataFile> t : tables) {
                if (round < t.size()) {
                    out.add(t.get(round));
                }
            }
        }
        return out;
    }
}
