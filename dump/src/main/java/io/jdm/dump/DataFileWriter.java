package io.jdm.dump;

import io.jdm.common.config.Compression;
import io.jdm.common.dumpdir.DumpFileNames;
import io.jdm.common.dumpdir.FileManifest;
import io.jdm.common.dumpdir.OwnerOnly;
import io.jdm.common.metrics.Latency;
import io.jdm.common.metrics.Throughput;
import io.jdm.common.sql.SqlBytes;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import java.util.zip.CheckedOutputStream;

/**
 * Writes one chunk's rows as multi-row INSERT statements into {@code db.tbl.NNNNNNNNN.sql[.gz|.zst]}
 * files: a statement ends at about {@code statementSize} bytes, a file after about
 * {@code fileSizeLimit} bytes (always at a statement boundary). A file is opened only when a row
 * arrives, so an empty chunk leaves no file; it is created {@code 0600} ({@link OwnerOnly}).
 */
final class DataFileWriter implements AutoCloseable {
    static final String HEADER = "/*!40101 SET NAMES utf8mb4*/;\n/*!40014 SET FOREIGN_KEY_CHECKS=0*/;\n";
    private static final byte[] HEADER_BYTES = HEADER.getBytes(StandardCharsets.US_ASCII);

    private final Path dir;
    private final TableJob table;
    private final Compression compression;
    private final long statementSize;
    private final long fileSizeLimit;
    private final Throughput bytesCounter;
    private final SqlBytes statement;
    private final List<Path> files = new ArrayList<>();
    private final List<FileManifest.Entry> written = new ArrayList<>();
    private OutputStream out;
    private CRC32C checksum;
    private long fileBytes;
    private long fileRows;
    private long statementRows;
    private long totalBytes;
    private long writeNanos;
    private boolean rowsInStatement;

    /** @param buffer the statement buffer, reused across a worker's chunks so it does not regrow each time */
    DataFileWriter(Path dir, TableJob table, Compression compression, long statementSize, long fileSizeLimit,
                   Throughput bytesCounter, SqlBytes buffer) {
        this.bytesCounter = bytesCounter;
        this.statement = buffer;
        buffer.clear();
        this.dir = dir;
        this.table = table;
        this.compression = compression;
        this.statementSize = statementSize;
        this.fileSizeLimit = fileSizeLimit <= 0 ? Long.MAX_VALUE : fileSizeLimit;
    }

    /** Starts a row and returns the buffer to append its comma-separated values to. */
    SqlBytes startRow() {
        statementRows++;
        if (rowsInStatement) {
            statement.append(',').append('\n').append('(');
        } else {
            statement.append(table.insertPrefixUtf8()).append('(');
            rowsInStatement = true;
        }
        return statement;
    }

    /** Ends the row; writes the statement out when it reached the statement size. */
    void endRow() throws IOException {
        statement.append(')');
        if (statement.length() >= statementSize) {
            flushStatement();
        }
    }

    /** Ends the last statement and closes the file. */
    void finish() throws IOException {
        flushStatement();
        closeFile();
    }

    private void flushStatement() throws IOException {
        if (!rowsInStatement) {
            return;
        }
        statement.append(';').append('\n');
        if (out == null) {
            openFile();
        }
        write(statement);
        statement.clear();
        rowsInStatement = false;
        fileRows += statementRows;
        statementRows = 0;
        if (fileBytes >= fileSizeLimit) {
            closeFile();
        }
    }

    private void openFile() throws IOException {
        String name = DumpFileNames.dataFile(table.name().schema(), table.name().table(), table.nextFileIndex(),
                compression.suffix());
        Path file = dir.resolve(name);
        files.add(file);
        checksum = new CRC32C(); // of the bytes as stored: a compressed file is checked without decompressing
        out = Compressors.wrap(compression, new BufferedOutputStream(
                new CheckedOutputStream(OwnerOnly.newOutputStream(file), checksum), 256 * 1024));
        fileBytes = 0;
        fileRows = 0;
        write(HEADER_BYTES);
    }

    private void write(SqlBytes bytes) throws IOException {
        long t0 = System.nanoTime();
        bytes.writeTo(out);
        writeNanos += System.nanoTime() - t0;
        counted(bytes.length());
    }

    private void write(byte[] bytes) throws IOException {
        long t0 = System.nanoTime();
        out.write(bytes);
        writeNanos += System.nanoTime() - t0;
        counted(bytes.length);
    }

    private void counted(int n) {
        fileBytes += n;
        totalBytes += n;
        bytesCounter.add(n);
    }

    private void closeFile() throws IOException {
        if (out != null) {
            long t0 = System.nanoTime();
            OutputStream o = out;
            out = null;
            o.close();
            writeNanos += System.nanoTime() - t0;
            Path file = files.get(files.size() - 1);
            written.add(new FileManifest.Entry(file.getFileName().toString(), checksum.getValue(), Files.size(file),
                    fileRows));
        }
    }

    long bytes() {
        return totalBytes;
    }

    List<Path> files() {
        return files;
    }

    /** The files closed so far, for {@code jdm-files}. */
    List<FileManifest.Entry> written() {
        return written;
    }

    void recordWriteLatency(Latency latency) {
        latency.recordNanos(writeNanos);
    }

    /** Closes without finishing and deletes what this writer created: a failed attempt leaves nothing. */
    void discard() {
        bytesCounter.add(-totalBytes);
        totalBytes = 0;
        try {
            closeFile();
        } catch (IOException ignored) {
            // the files are deleted next; a close failure changes nothing
        }
        for (Path f : files) {
            try {
                Files.deleteIfExists(f);
            } catch (IOException ignored) {
                // an incomplete dump is detected by the missing metadata, not by these files
            }
        }
    }

    @Override
    public void close() throws IOException {
        closeFile();
    }
}
