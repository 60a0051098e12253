package io.jdm.load;

import com.github.luben.zstd.ZstdInputStream;
import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongConsumer;
import java.util.zip.GZIPInputStream;

/** Opens a dump file as its uncompressed text, reporting bytes read from disk as they are read. */
final class DumpFileInput {
    private DumpFileInput() {
    }

    static InputStream open(Path path, String compression, LongConsumer diskBytes) throws IOException {
        InputStream raw = new Counting(new BufferedInputStream(Files.newInputStream(path), 1 << 16), diskBytes);
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
