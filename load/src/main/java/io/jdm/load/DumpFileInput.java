package io.jdm.load;

import com.github.luben.zstd.ZstdInputStream;
import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongConsumer;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;
import java.util.zip.GZIPInputStream;

/** Opens a dump file as its uncompressed text, reporting bytes read from disk as they are read. */
final class DumpFileInput {
    private DumpFileInput() {
    }

    /**
     * Why a dump file could not be read, in words: a compressed file cut short ends its stream early,
     * which the JDK reports as an {@link java.io.EOFException} often without a message.
     */
    static String why(IOException e) {
        if (e instanceof java.io.EOFException) {
            return "its compressed stream ends early (" + (e.getMessage() == null ? "no end of stream"
                    : e.getMessage()) + "): the file is cut short";
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    static InputStream open(Path path, String compression, LongConsumer diskBytes) throws IOException {
        return text(Files.newInputStream(path), compression, diskBytes);
    }

    /**
     * Opens {@code path} as {@link #open} does, with the CRC32C of its bytes as stored computed as
     * they are read: a file is read once for its text and its check.
     */
    static Checked openChecked(Path path, String compression, LongConsumer diskBytes) throws IOException {
        CheckedInputStream file = new CheckedInputStream(Files.newInputStream(path), new CRC32C());
        return new Checked(file, text(file, compression, diskBytes));
    }

    /** A dump file's text, and the checksum of its stored bytes read so far. */
    static final class Checked {
        private final CheckedInputStream file;
        final InputStream text;

        private Checked(CheckedInputStream file, InputStream text) {
            this.file = file;
            this.text = text;
        }

        /**
         * The CRC32C of the whole file as stored: what the text did not read of it (a compressed
         * file's trailer) is read now.
         */
        long crcToEnd() throws IOException {
            file.transferTo(OutputStream.nullOutputStream());
            return file.getChecksum().getValue();
        }
    }

    private static InputStream text(InputStream file, String compression, LongConsumer diskBytes) throws IOException {
        InputStream raw = new Counting(new BufferedInputStream(file, 1 << 16), diskBytes);
        try {
            return switch (compression) {
                case "" -> raw;
                case ".gz" -> new GZIPInputStream(raw, 1 << 16);
                case ".zst" -> new ZstdInputStream(raw);
                default -> throw new IOException("unknown compression " + compression);
            };
        } catch (IOException e) {
            raw.close();
            throw e;
        }
    }

    /** Passes through, reporting each read's byte count. */
    private static final class Counting extends FilterInputStream {
        private final LongConsumer sink;

        Counting(InputStream in, LongConsumer sink) {
            super(in);
            this.sink = sink;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                sink.accept(1);
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                sink.accept(n);
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long s = super.skip(n);
            if (s > 0) {
                sink.accept(s);
            }
            return s;
        }
    }
}
