package io.jdm.load;

import io.jdm.common.dumpdir.DumpFileNames;
import io.jdm.common.dumpdir.DumpMetadata;
import io.jdm.common.position.Flavor;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.TableName;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.zip.GZIPOutputStream;

/**
 * Writes a test fixture in the Dumpling layout from a source database. Values are turned into
 * literals by the server itself ({@code QUOTE}, {@code HEX}, {@code BIN}), independent of the
 * code under test, so a load that reproduces the source proves the loader and not a shared
 * encoder.
 */
final class FixtureDumper {
    private FixtureDumper() {
    }

    /** Dumps every table of {@code db}; {@code compression} picks "", ".gz" or ".zst" per table. */
    static void dump(Connection src, String db, Path dir, int rowsPerStatement, int rowsPerFile,
                     Function<String, String> compression) throws SQLException, IOException {
        Files.createDirectories(dir);
        try (Statement st = src.createStatement()) {
            st.execute("SET time_zone = '+00:00'");
        }
        try (Statement st = src.createStatement();
             ResultSet rs = st.executeQuery("SHOW CREATE DATABASE " + Identifiers.quote(db))) {
            rs.next();
            Files.writeString(dir.resolve(DumpFileNames.databaseSchema(db)),
                    "/*!40101 SET NAMES binary*/;\n" + rs.getString(2) + ";\n");
        }
        List<String> tables = new ArrayList<>();
        try (PreparedStatement ps = src.prepareStatement("SELECT TABLE_NAME FROM information_schema.TABLES "
                + "WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME")) {
            ps.setString(1, db);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
        }
        for (String t : tables) {
            TableName tn = new TableName(db, t);
            try (Statement st = src.createStatement(); ResultSet rs = st.executeQuery("SHOW CREATE TABLE " + tn.quoted())) {
                rs.next();
                Files.writeString(dir.resolve(DumpFileNames.tableSchema(db, t)),
                        "/*!40101 SET NAMES binary*/;\n" + rs.getString(2) + ";\n");
            }
            dumpData(src, tn, dir, rowsPerStatement, rowsPerFile, compression.apply(t));
        }
        new DumpMetadata(LocalDateTime.now(), LocalDateTime.now(), Flavor.detect(src).currentPosition(src), null)
                .writeTo(dir);
    }

    private static void dumpData(Connection src, TableName t, Path dir, int rowsPerStatement, int rowsPerFile,
                                 String compression) throws SQLException, IOException {
        List<String> cols = new ArrayList<>();
        List<String> exprs = new ArrayList<>();
        try (PreparedStatement ps = src.prepareStatement("SELECT COLUMN_NAME, DATA_TYPE, EXTRA FROM "
                + "information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION")) {
            ps.setString(1, t.schema());
            ps.setString(2, t.table());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String extra = rs.getString(3) == null ? "" : rs.getString(3).toUpperCase();
                    if (extra.contains("VIRTUAL") || extra.contains("STORED") || extra.contains("PERSISTENT")) {
                        continue;
                    }
                    cols.add(Identifiers.quote(rs.getString(1)));
                    exprs.add(literal(Identifiers.quote(rs.getString(1)), rs.getString(2)));
                }
            }
        }
        String head = "INSERT INTO " + Identifiers.quote(t.table()) + " (" + String.join(",", cols) + ") VALUES\n";
        String select = "SELECT CONCAT('(', " + String.join(", ',', ", exprs) + ", ')') FROM " + t.quoted();
        try (Statement st = src.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
            st.setFetchSize(Integer.MIN_VALUE);
            try (ResultSet rs = st.executeQuery(select)) {
                long fileIndex = 0;
                int inFile = 0;
                int inStmt = 0;
                OutputStream out = null;
                while (rs.next()) {
                    if (out == null || inFile == rowsPerFile) {
                        if (out != null) {
                            out.write(";\n".getBytes(StandardCharsets.UTF_8));
                            out.close();
                        }
                        out = open(dir.resolve(DumpFileNames.dataFile(t.schema(), t.table(), ++fileIndex, compression)),
                                compression);
                        out.write(("/*!40101 SET NAMES binary*/;\n/*!40014 SET FOREIGN_KEY_CHECKS=0*/;\n"
                                + "/*!40103 SET TIME_ZONE='+00:00' */;\n").getBytes(StandardCharsets.UTF_8));
                        inFile = 0;
                        inStmt = 0;
                    }
                    if (inStmt == rowsPerStatement) {
                        out.write(";\n".getBytes(StandardCharsets.UTF_8));
                        inStmt = 0;
                    }
                    out.write((inStmt == 0 ? head : ",\n").getBytes(StandardCharsets.UTF_8));
                    out.write(rs.getBytes(1));
                    inStmt++;
                    inFile++;
                }
                if (out != null) {
                    out.write(";\n".getBytes(StandardCharsets.UTF_8));
                    out.close();
                }
            }
        }
    }

    private static OutputStream open(Path file, String compression) throws IOException {
        OutputStream raw = Files.newOutputStream(file);
        return switch (compression) {
            case "" -> raw;
            case ".gz" -> new GZIPOutputStream(raw, 1 << 16);
            case ".zst" -> new com.github.luben.zstd.ZstdOutputStream(raw);
            default -> throw new UncheckedIOException(new IOException("compression " + compression));
        };
    }

    private static String literal(String col, String dataType) {
        return switch (dataType.toLowerCase()) {
            case "tinyint", "smallint", "mediumint", "int", "bigint", "decimal", "float", "double" ->
                    "IFNULL(CAST(" + col + " AS CHAR), 'NULL')";
            case "bit" -> "IFNULL(CONCAT('b''', BIN(" + col + "), ''''), 'NULL')";
            case "binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob", "point", "geometry",
                    "linestring", "polygon", "multipoint", "multilinestring", "multipolygon", "geometrycollection" ->
                    "IFNULL(CONCAT('X''', HEX(" + col + "), ''''), 'NULL')";
            default -> "QUOTE(" + col + ")";
        };
    }
}
