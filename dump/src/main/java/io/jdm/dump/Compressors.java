package io.jdm.dump;

import com.github.luben.zstd.ZstdOutputStream;
import io.jdm.common.config.Compression;
import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.GZIPOutputStream;

/** The output stream that writes a dump file in its {@link Compression}. */
final class Compressors {
    private Compressors() {
    }

    static OutputStream wrap(Compression compression, OutputStream out) throws IOException {
        return switch (compression) {
            case NONE -> out;
            case GZIP -> new GZIPOutputStream(out, 64 * 1024);
            case ZSTD -> new ZstdOutputStream(out, 3);
        };
    }
}
