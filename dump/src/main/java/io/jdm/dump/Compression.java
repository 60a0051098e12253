package io.jdm.dump;

import com.github.luben.zstd.ZstdOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.GZIPOutputStream;

/** Compression of the files a dump writes; the suffix is what {@code DumpFileNames} parses back. */
public enum Compression {
    NONE(""), GZIP(".gz"), ZSTD(".zst");

    private final String suffix;

    Compression(String suffix) {
        this.suffix = suffix;
    }

    /** "", ".gz" or ".zst". */
    public String suffix() {
        return suffix;
    }

    OutputStream wrap(OutputStream out) throws IOException {
        return switch (this) {
            case NONE -> out;
            case GZIP -> new GZIPOutputStream(out, 64 * 1024);
            case ZSTD -> new ZstdOutputStream(out, 3);
        };
    }
}
