package io.jdm.common.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** The keys of a {@code loaders:} entry ({@link LoaderConfig}), in the order they are read. */
public final class LoaderKeys {
    private static final TaskKey.Declarer K = TaskKey.in("loaders");
    private static final String JDM_ONLY = TaskKey.Declarer.NOT_IN_DM;
    private static final Map<String, OnDuplicate> ON_DUPLICATE_NAMES = Section.names(OnDuplicate.values());
    /** DM's names of the logical import: logical, and sql and loader from before v6. */
    private static final List<String> LOGICAL_IMPORT = List.of("logical", "sql", "loader");
    private static final String PHYSICAL = "a physical import setting; jdm imports logically, ignored";

    public static final TaskKey<Integer> POOL_SIZE = K.threads("pool-size", 16, TaskKey.MAX_THREADS, "16",
            "Parallel connections writing to the target.");
    /** Read as written; {@link UnitReaders#loader} adds the task name where the file lays out directories DM's way. */
    public static final TaskKey<Optional<Path>> DIR = K.custom("dir", "path", Optional.empty(),
            "where the dump wrote", 1, 0, "a local directory", "./dumped_data",
            "The dump directory to load; without a mydumpers dir, DM's way: <dir>.<task name>.", LoaderKeys::dir);
    public static final TaskKey<OnDuplicate> ON_DUPLICATE_LOGICAL = K.custom("on-duplicate-logical",
            "one of " + String.join(", ", ON_DUPLICATE_NAMES.keySet()), OnDuplicate.ERROR, "error", 1, 0, "",
            "replace", "A row already in the target: error stops the load, replace overwrites it, ignore keeps it.",
            LoaderKeys::onDuplicate);
    public static final TaskKey<OnDuplicate> ON_DUPLICATE = K.custom("on-duplicate",
            ON_DUPLICATE_LOGICAL.type(), OnDuplicate.ERROR, "error", 1, 0, "", "replace",
            "DM's older name of on-duplicate-logical; set one of the two.", null);
    public static final TaskKey<DeferIndexes> DEFER_INDEXES = K.custom("defer-indexes", "true, false or auto",
            DeferIndexes.LARGE_TABLES, "auto", 1, 0, "", JDM_ONLY,
            "Add secondary indexes after the rows are in (several tables at once: pool-size, at most 8): true for"
                    + " every table, auto for tables of 16 MiB or more, where it pays.", LoaderKeys::deferIndexes);
    public static final TaskKey<Boolean> DISABLE_FOREIGN_KEY_CHECKS = K.bool("disable-foreign-key-checks", true,
            JDM_ONLY, "Load with foreign_key_checks off: the source checked them already.");
    public static final TaskKey<Boolean> DISABLE_UNIQUE_CHECKS = K.bool("disable-unique-checks", true, JDM_ONLY,
            "Load with unique_checks off: the source checked them already.");
    public static final TaskKey<Boolean> DISABLE_BINLOG = K.bool("disable-binlog", false, JDM_ONLY,
            "Load with the target's sql_log_bin off, so the load does not reach the target's replicas.");
    public static final TaskKey<String> IMPORT_MODE = K.custom("import-mode", "one of logical, sql, loader",
            "logical", "logical", 1, 0, "", "logical",
            "How the dump is imported: jdm imports through SQL statements only (DM's physical import is refused).",
            LoaderKeys::importMode);
    public static final TaskKey<Void> ROWS_PER_TRANSACTION = K.ignored("rows-per-transaction",
            "not a key of DM's loader; jdm commits a load transaction by its size in bytes, with the checkpoint; "
                    + "ignored");
    /** DM's physical import keys, ignored alike. */
    public static final List<TaskKey<Void>> PHYSICAL_IMPORT = physical("on-duplicate-physical",
            "sorting-dir-physical", "disk-quota-physical", "checksum-physical", "analyze", "range-concurrency",
            "compress-kv-pairs", "pd-addr");

    /** Every key of the section, in reading order. */
    public static final List<TaskKey<?>> ALL = K.declared();

    private LoaderKeys() {
    }

    private static List<TaskKey<Void>> physical(String... names) {
        List<TaskKey<Void>> keys = new ArrayList<>();
        for (String name : names) {
            keys.add(K.ignored(name, PHYSICAL));
        }
        return List.copyOf(keys);
    }

    private static Optional<Path> dir(Section s, TaskKey<Optional<Path>> k) {
        Optional<String> dir = s.optionalText(k.name());
        if (dir.isPresent() && dir.get().contains("://")) {
            s.problem(k.name(), "jdm dumps to a local directory only, got " + s.shown(k.name()));
            return Optional.empty();
        }
        return dir.map(Path::of);
    }

    /** DM's newer name on-duplicate-logical and the older on-duplicate are one setting; blank is the default. */
    private static OnDuplicate onDuplicate(Section s, TaskKey<OnDuplicate> k) {
        String newer = k.name();
        String older = ON_DUPLICATE.name();
        boolean logical = s.optionalText(newer).isPresent();
        boolean plain = s.optionalText(older).isPresent();
        if (logical && plain) {
            s.problem(newer, "and " + older + " are the same setting; keep one");
            return k.def();
        }
        String key = logical ? newer : older;
        return s.optionalText(key).isEmpty() ? k.def() : s.choice(key, k.def(), ON_DUPLICATE_NAMES);
    }

    /** A boolean, or {@code auto}. */
    private static DeferIndexes deferIndexes(Section s, TaskKey<DeferIndexes> k) {
        Optional<String> text = s.text(k.name()).map(t -> t.strip().toLowerCase(Locale.ROOT));
        if (text.isEmpty()) {
            return k.def();
        }
        if (text.get().equals("auto")) {
            return DeferIndexes.LARGE_TABLES;
        }
        if (Section.TRUE.contains(text.get())) {
            return DeferIndexes.ALWAYS;
        }
        if (Section.FALSE.contains(text.get())) {
            return DeferIndexes.NEVER;
        }
        s.problem(k.name(), "must be true, false or auto, got " + s.shown(k.name()));
        return k.def();
    }

    private static String importMode(Section s, TaskKey<String> k) {
        Optional<String> mode = s.text(k.name()).map(m -> m.strip().toLowerCase(Locale.ROOT));
        if (mode.isPresent() && !LOGICAL_IMPORT.contains(mode.get())) {
            s.problem(k.name(), mode.get().equals("physical") ? DmKeys.NO_PHYSICAL
                    : "must be logical, sql or loader, got " + s.shown(k.name())
                    + " (jdm loads through SQL statements only)");
        }
        return mode.orElse(k.def());
    }
}
