package io.jdm.common.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** The keys of a {@code mydumpers:} entry ({@link MydumperConfig}), in the order they are read. */
public final class MydumperKeys {
    private static final TaskKey.Declarer K = TaskKey.in("mydumpers");
    private static final String JDM_ONLY = TaskKey.Declarer.NOT_IN_DM;

    public static final TaskKey<Integer> THREADS = K.threads("threads", 4, TaskKey.MAX_THREADS, "4",
            "Parallel dump connections to the source.");
    public static final TaskKey<Long> ROWS = K.longInteger("rows", 200_000, 0, 1_000_000_000, "0",
            "Rows per chunk, so that one large table dumps in parallel; 0 dumps each table as one chunk.");
    /**
     * DM hands statement-size to its dump only when it is above 0, so 0 keeps the default (dumpling's);
     * a statement buffer past the maximum would not fit the largest max_allowed_packet (1 GiB).
     */
    public static final TaskKey<Long> STATEMENT_SIZE = K.custom("statement-size", "integer", 1_000_000L, "1000000",
            0, 1L << 30, "0.." + (1L << 30) + "; 0 is the default", "0 (dumpling's 1000000)",
            "Bytes at which an INSERT statement of a dump file ends; a row longer than this is a statement of its own.",
            (s, k) -> {
                long size = s.longInteger(k.name(), k.def(), k.min(), k.max());
                return size == 0 ? k.def() : size;
            });
    /** 1 TiB at most: far past any file worth splitting, and small enough for an int of MiB. */
    public static final TaskKey<Integer> CHUNK_FILESIZE = K.custom("chunk-filesize", "MiB, or a size such as 64MiB",
            64, "64", 0, 1 << 20, "0.." + (1 << 20) + " MiB", "64",
            "Size at which a dump file is split; 0 does not split files by size.", MydumperKeys::chunkFilesize);
    public static final TaskKey<Consistency> CONSISTENCY = K.choice("consistency", Consistency.AUTO,
            Section.names(Consistency.values()), JDM_ONLY + " (extra-args --consistency, auto)",
            "How the dump gets one snapshot of the source; see consistency.md.");
    public static final TaskKey<Optional<String>> WHERE = K.custom("where", "text", Optional.empty(), "none", 1, 0,
            "", "none", "A condition added to the SELECT of every table dumped.", (s, k) -> s.optionalText(k.name()));
    public static final TaskKey<Compression> COMPRESS = K.choice("compress", Compression.NONE,
            Section.names(Compression.values()), JDM_ONLY, "Compression of the dump files.");
    public static final TaskKey<Optional<Path>> DIR = K.custom("dir", "path", Optional.empty(),
            "./dumped_data.<task name>", 1, 0, "", JDM_ONLY + " (loaders.*.dir)",
            "The dump directory, relative to where jdm runs.", (s, k) -> s.optionalText(k.name()).map(Path::of));
    public static final TaskKey<Optional<String>> EXTRA_ARGS = K.custom("extra-args", "dumpling flags",
            Optional.empty(), "none", 1, 0, "", "none",
            "Dumpling flags DM passes on (--threads, --rows, --filesize, --statement-size, --where, --consistency, "
                    + "--no-locks), applied after the keys.",
            (s, k) -> s.text(k.name()).filter(a -> !a.isBlank()));
    public static final TaskKey<Void> MYDUMPER_PATH = K.ignored("mydumper-path",
            "jdm dumps in-process and runs no mydumper binary; ignored");
    public static final TaskKey<Void> SKIP_TZ_UTC = K.ignored("skip-tz-utc",
            "DM's dump no longer reads it; ignored");

    /** Every key of the section, in reading order. */
    public static final List<TaskKey<?>> ALL = K.declared();

    private MydumperKeys() {
    }

    /** MiB as a number or DM's size text ({@code 64MiB}). */
    private static int chunkFilesize(Section s, TaskKey<Integer> k) {
        Optional<String> v = s.text(k.name());
        if (v.isEmpty() || v.get().isBlank()) {
            return k.def();
        }
        Optional<Long> mb = FileSize.megabytes(v.get());
        if (mb.isEmpty() || mb.get() > k.max()) {
            s.problem(k.name(), "must be a size in MiB 0.." + k.max() + " such as 64 or 64MiB, got "
                    + s.shown(k.name()));
            return k.def();
        }
        return (int) (long) mb.get();
    }
}
