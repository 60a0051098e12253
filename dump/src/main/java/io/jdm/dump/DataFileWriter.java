package io.jdm.dump;

import io.jdm.common.config.Compression;
import io.jdm.common.dumpdir.DumpFileNames;
import io.jdm.common.dumpdir.FileManifest;
import io.jdm.common.dumpdir.OwnerOnly;
import io.jdm.common.metrics.Latency;
import io.jdm.common.metrics.Throughput;
import io.jdm.common.sql.SqlBytes;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Writes one chunk's rows as multi-row INSERT statements into {@code db.tbl.NNNNNNNNN.sql[.gz|.zst]}
 * files: a statement ends at about {@code statementSize} bytes, a file after about
 * {@code fileSizeLimit} bytes (always at a statement boundary). A file is opened only when a row
 * arrives, so an empty chunk leaves no file; it is created {@code 0600} ({@link OwnerOnly}).
 */
final class DataFileWriter implements AutoCloseable {
    static final String HEADER = "/*!40101 SET NAMES utf8mb4*/;\n/*!40014 SET FOREIGN_KEY_CHECKS=0*/;\n";
    private static final byte[] HEADER_BYTES = HEADER.getBytes(StandardCharsets.US_ASCII);
    /** Ended statements are written out once the buffer holds this many bytes. */
    static final int WRITE_AT = 256 * 1024;

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
    private StoredBytes stored;
    /** Whether the current file's header is written or in the buffer. */
    private boolean fileStarted;
    /** Where the statement being built starts in the buffer. */
    private int statementStart;
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
            if (!fileStarted) {
                statement.append(HEADER_BYTES);
                fileStarted = true;
            }
            statementStart = statement.length();
            statement.append(table.insertPrefixUtf8()).append('(');
            rowsInStatement = true;
        }
        return statement;
    }

    /** Ends the row; ends the statement when it reached the statement size. */
    void endRow() throws IOException {
        statement.append(')');
        if (statement.length() - statementStart >= statementSize) {
            endStatement();
        }
    }

    /** Ends the last statement and closes the file. */
    void finish() throws IOException {
        endStatement();
        writeOut();
        closeFile();
    }

    /**
     * Ends the statement. The buffer holds the file's ended statements until {@link #WRITE_AT} bytes
     * or the end of the file: a small table's file is created, written and closed in one go.
     */
    private void endStatement() throws IOException {
        if (!rowsInStatement) {
            return;
        }
        statement.append(';').append('\n');
        rowsInStatement = false;
        fileRows += statementRows;
        statementRows = 0;
        if (fileBytes + statement.length() >= fileSizeLimit) {
            writeOut();
            closeFile();
        } else if (statement.length() >= WRITE_AT) {
            writeOut();
        }
    }

    /** Writes the buffered statements (and the file's header before its first), opening the file first. */
    private void writeOut() throws IOException {
        if (statement.length() == 0) {
            return;
        }
        if (out == null) {
            openFile();
        }
        long t0 = System.nanoTime();
        statement.writeTo(out);
        writeNanos += System.nanoTime() - t0;
        int n = statement.length();
        fileBytes += n;
        totalBytes += n;
        bytesCounter.add(n);
        statement.clear();
        statementStart = 0;
    }

    private void openFile() throws IOException {
        String name = DumpFileNames.dataFile(table.name().schema(), table.name().table(), table.nextFileIndex(),
                compression.suffix());
        Path file = dir.resolve(name);
        files.add(file);
        // the checksum and size of the bytes as stored: a compressed file is checked without decompressing
        stored = new StoredBytes(OwnerOnly.newOutputStream(file));
        out = Compressors.wrap(compression, stored);
    }

    private void closeFile() throws IOException {
        if (out != null) {
            long t0 = System.nanoTime();
            OutputStream o = out;
            out = null;
            o.close();
            writeNanos += System.nanoTime() - t0;
            Path file = files.get(files.size() - 1);
            written.add(new FileManifest.Entry(file.getFileName().toString(), stored.crc.getValue(), stored.size,
                    fileRows));
        }
        fileStarted = false;
        fileRows = 0;
        fileBytes = 0;
    }

    /** The file's bytes as they reach it: counted and checksummed, written through as they come. */
    private static final class StoredBytes extends FilterOutputStream {
        final CRC32C crc = new CRC32C();
        long size;

        StoredBytes(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            crc.update(b);
            size++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            crc.update(b, off, len);
            size += len;
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
