package io.jdm.load;

import io.jdm.common.dumpdir.DumpFileNames;
import io.jdm.common.dumpdir.FileManifest;
import io.jdm.common.sql.TableName;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.BiPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The files of one dump directory that the table filter selects, sorted by name.
 *
 * @param escaping how the directory's file names escape schema and table names
 * @param skipped one line per SQL file the load does not apply: its name, why, and what to do
 */
record DumpDirectory(Map<String, Path> databases, List<SchemaFile> tables, List<SchemaFile> views,
                     List<DataFile> data, DumpFileNames.Escaping escaping, List<String> skipped) {

    /** A CREATE TABLE or CREATE VIEW file of one source table. */
    record SchemaFile(TableName source, Path path) {
    }

    /**
     * One data file.
     *
     * @param name the file name, relative to the dump directory: the checkpoint's key
     * @param size bytes on disk
     */
    record DataFile(TableName source, String name, Path path, long index, String compression, long size) {
    }

    /** mydumper names the only data file of an unchunked table {@code db.tbl.sql}, without a chunk number. */
    private static final Pattern UNCHUNKED = Pattern.compile("^([^.]+)\\.([^.]+)\\.sql(\\.gz|\\.zst)?$");

    DumpFileNames.Parsed parse(String fileName) {
        return parse(fileName, escaping);
    }

    static DumpFileNames.Parsed parse(String fileName, DumpFileNames.Escaping escaping) {
        DumpFileNames.Parsed f = DumpFileNames.parse(fileName, escaping).orElse(null);
        if (f != null || fileName.contains("-schema")) {
            return f;
        }
        Matcher m = UNCHUNKED.matcher(fileName);
        if (!m.matches()) {
            return null;
        }
        return new DumpFileNames.Parsed(DumpFileNames.Kind.DATA, escaping.unescape(m.group(1)),
                escaping.unescape(m.group(2)), 0, m.group(3) == null ? "" : m.group(3));
    }

    static DumpDirectory scan(Path dir, BiPredicate<String, String> filter) throws IOException {
        Map<String, Path> dbs = new TreeMap<>();
        List<SchemaFile> tables = new ArrayList<>();
        List<SchemaFile> views = new ArrayList<>();
        List<DataFile> data = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(Files::isRegularFile).sorted().toList();
        }
        DumpFileNames.Escaping escaping = FileManifest.escaping(dir);
        List<String> skipped = new ArrayList<>();
        Set<String> selectedDbs = new HashSet<>();
        Set<String> allDbs = new HashSet<>();
        for (Path p : files) {
            DumpFileNames.Parsed f = parse(p.getFileName().toString(), escaping);
            if (f == null) {
                skipReason(p.getFileName().toString()).ifPresent(skipped::add);
                continue;
            }
            if (f.kind() == DumpFileNames.Kind.DATABASE) {
                dbs.put(f.schema(), p);
                continue;
            }
            allDbs.add(f.schema());
            if (!filter.test(f.schema(), f.table())) {
                continue;
            }
            selectedDbs.add(f.schema());
            TableName t = new TableName(f.schema(), f.table());
            switch (f.kind()) {
                case TABLE -> tables.add(new SchemaFile(t, p));
                case VIEW -> views.add(new SchemaFile(t, p));
                case DATA -> data.add(new DataFile(t, p.getFileName().toString(), p, f.index(), f.compression(),
                        Files.size(p)));
                default -> throw new IllegalStateException(f.kind().name());
            }
        }
        // Dumpling's and mydumper's placeholder table of a view: the view file replaces it, after the tables
        Set<TableName> viewNames = new HashSet<>();
        views.forEach(v -> viewNames.add(v.source()));
        tables.removeIf(t -> viewNames.contains(t.source()));
        // a database is created when one of its objects is selected, or when it is empty in the dump
        dbs.keySet().removeIf(db -> !selectedDbs.contains(db) && (allDbs.contains(db) || !filter.test(db, "")));
        data.sort(Comparator.comparing(DataFile::source).thenComparingLong(DataFile::index));
        return new DumpDirectory(dbs, tables, views, data, escaping, skipped);
    }

    /** Why a file that looks like SQL is not applied; empty for the files that are not SQL (metadata). */
    static Optional<String> skipReason(String name) {
        String base = name.replaceFirst("\\.(gz|zst)$", "");
        if (!base.endsWith(".sql")) {
            return Optional.empty();
        }
        String why;
        if (base.endsWith("-schema-triggers.sql")) {
            why = "its triggers are not created; run the file on the target after the load";
        } else if (base.endsWith("-schema-post.sql")) {
            why = "its functions, procedures and events are not created; run the file on the target after the load";
        } else if (base.endsWith("-schema-sequence.sql")) {
            why = "its sequences are not created; run the file on the target before the load";
        } else if (base.endsWith("-placement-policy-create.sql")) {
            why = "placement policies are not created; run the file on the TiDB target before the load";
        } else {
            why = "not a file of Dumpling's, mydumper's or jdm's layout; load it by hand if it belongs to the dump";
        }
        return Optional.of("skipping " + name + ": " + why);
    }
}
