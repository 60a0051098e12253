package io.jdm.common.config;

/**
 * Compression of the files a dump writes ({@code mydumpers.*.compress}); the suffix is what
 * {@code DumpFileNames} parses back.
 */
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
}
