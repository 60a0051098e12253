package io.jdm.bench.load;

import io.jdm.bench.workload.Sbtest;
import io.jdm.common.dumpdir.DumpFileNames;
import io.jdm.common.dumpdir.DumpMetadata;
import io.jdm.common.position.BinlogPosition;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.SplittableRandom;

/**
 * Writes {@code tables} sbtest tables of {@code rows} rows as a dump directory (Dumpling/mydumper
 * layout, {@code rowsPerStatement} rows per INSERT, {@code rowsPerFile} rows per file) and the same
 * rows as one TSV file per table. The rows are a function of the seed, so every layout holds the
 * same data.
 */
final class SbtestDump {
    static final String DB = "loadbench";

    private SbtestDump() {
    }

    /** Bytes of SQL data files written. */
    static long write(Path dir, Path tsvDir, int tables, int rows, int rowsPerStatement, int rowsPerFile)
            throws IOException {
        Files.createDirectories(dir);
        Files.createDirectories(tsvDir);
        Files.writeString(dir.resolve(DumpFileNames.databaseSchema(DB)), "CREATE DATABASE `" + DB + "`;\n");
        long bytes = 0;
        for (int t = 1; t <= tables; t++) {
            String name = Sbtest.tableName(t);
            Files.writeString(dir.resolve(DumpFileNames.tableSchema(DB, name)), createTable(t) + ";\n");
            bytes += writeTable(dir, tsvDir, t, rows, rowsPerStatement, rowsPerFile);
        }
        new DumpMetadata(LocalDateTime.now(), LocalDateTime.now(), BinlogPosition.of("mysql-bin.000001", 4), null)
                .writeTo(dir);
        return bytes;
    }

    private static String clip(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max);
    }

    /** sysbench's table, unqualified (every loader picks its own database). */
    static String createTable(int i) {
        return Sbtest.createTable(DB, i).replace("CREATE TABLE IF NOT EXISTS `" + DB + "`.", "CREATE TABLE ");
    }

    private static long writeTable(Path dir, Path tsvDir, int t, int rows, int rowsPerStatement, int rowsPerFile)
            throws IOException {
        String name = Sbtest.tableName(t);
        SplittableRandom r = new SplittableRandom(1000L + t);
        String head = "INSERT INTO `" + name + "` (`id`,`k`,`c`,`pad`) VALUES\n";
        long bytes = 0;
        BufferedWriter sql = null;
        int file = 0;
        try (BufferedWriter tsv = Files.newBufferedWriter(tsvDir.resolve(name + ".tsv"), StandardCharsets.UTF_8)) {
            for (int id = 1; id <= rows; id++) {
                int inFile = (id - 1) % rowsPerFile;
                if (inFile == 0) {
                    if (sql != null) {
                        sql.write(";\n");
                        sql.close();
                    }
                    Path p = dir.resolve(DumpFileNames.dataFile(DB, name, ++file, ""));
                    sql = Files.newBufferedWriter(p, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE,
                            java.nio.file.StandardOpenOption.TRUNCATE_EXISTING, java.nio.file.StandardOpenOption.WRITE);
                    sql.write("/*!40101 SET NAMES binary*/;\n");
                }
                int k = r.nextInt(rows) + 1;
                // sysbench's c is 119 characters and pad 59; cut to the column widths whatever the generator gives
                String c = clip(Sbtest.c(r), 119);
                String pad = clip(Sbtest.pad(r), 59);
                if (inFile % rowsPerStatement == 0) {
                    sql.write(inFile == 0 ? head : ";\n" + head);
                } else {
                    sql.write(",\n");
                }
                sql.write("(" + id + "," + k + ",'" + c + "','" + pad + "')");
                tsv.write(id + "\t" + k + "\t" + c + "\t" + pad + "\n");
            }
            if (sql != null) {
                sql.write(";\n");
                sql.close();
            }
        }
        try (var files = Files.list(dir)) {
            for (Path p : files.filter(p -> p.getFileName().toString().startsWith(DB + "." + name + ".")).toList()) {
                bytes += Files.size(p);
            }
        }
        return bytes;
    }
}
