package io.jdm.common.config;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * DM's file sizes ({@code chunk-filesize}, dumpling's {@code -F}): a bare number is MiB, otherwise a
 * number and a unit as Docker's RAMInBytes reads them, where k, KB and KiB all mean 1024.
 */
final class FileSize {
    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([kmgtp]?)(i?b)?",
            Pattern.CASE_INSENSITIVE);
    private static final Map<String, Integer> SHIFT = Map.of("", 0, "k", 10, "m", 20, "g", 30, "t", 40, "p", 50);
    private static final long MIB = 1L << 20;

    private FileSize() {
    }

    /** The size in whole MiB, rounded up; 0 stays 0 (no limit); empty when it is not a size. */
    static Optional<Long> megabytes(String text) {
        String t = text.strip();
        if (t.matches("\\d+")) {
            return Optional.of(Long.parseLong(t));
        }
        Matcher m = SIZE.matcher(t);
        if (!m.matches()) {
            return Optional.empty();
        }
        double bytes = Double.parseDouble(m.group(1)) * (1L << SHIFT.get(m.group(2).toLowerCase(Locale.ROOT)));
        return Optional.of((long) Math.ceil(bytes / MIB));
    }

    /** The size in bytes as Docker's RAMInBytes reads it (DM's {@code max-pending-row-size}): a bare number is bytes. */
    static Optional<Long> bytes(String text) {
        Matcher m = SIZE.matcher(text.strip());
        if (!m.matches()) {
            return Optional.empty();
        }
        return Optional.of((long) (Double.parseDouble(m.group(1)) * (1L << SHIFT.get(m.group(2).toLowerCase(Locale.ROOT)))));
    }
}
