package io.jdm.common.config;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** The keys of a {@code validators:} entry ({@link ValidatorConfig}), in the order they are read; defaults are DM's. */
public final class ValidatorKeys {
    private static final TaskKey.Declarer K = TaskKey.in("validators");
    private static final String SAME = "same";
    private static final String ZERO_IS_DEFAULT = "0 is the default";

    public static final TaskKey<ValidatorConfig.Mode> MODE = K.choice("mode", ValidatorConfig.Mode.NONE,
            Section.names(ValidatorConfig.Mode.values()), SAME,
            "What a row is compared by: full every column, fast existence only, none not validated.");
    public static final TaskKey<Integer> WORKER_COUNT = K.threads("worker-count", 4, 64, SAME,
            "Target connections that read committed rows back.");
    public static final TaskKey<Duration> VALIDATE_INTERVAL = K.duration("validate-interval", Duration.ofSeconds(10),
            ZERO_IS_DEFAULT, SAME, "How often pending rows are compared.", ValidatorKeys::positive);
    public static final TaskKey<Duration> CHECK_INTERVAL = K.duration("check-interval", Duration.ofSeconds(5),
            ZERO_IS_DEFAULT, SAME, "How often the running task looks for jdm validation start|stop.",
            ValidatorKeys::positive);
    public static final TaskKey<Duration> ROW_ERROR_DELAY = K.duration("row-error-delay", Duration.ofMinutes(30),
            ZERO_IS_DEFAULT, SAME, "How long a row may keep differing before it is an error row.",
            ValidatorKeys::positive);
    public static final TaskKey<Duration> META_FLUSH_INTERVAL = K.duration("meta-flush-interval",
            Duration.ofMinutes(5), ZERO_IS_DEFAULT, SAME,
            "How often the pending rows and counters are saved in the meta schema.", ValidatorKeys::positive);
    public static final TaskKey<Integer> BATCH_QUERY_SIZE = K.integer("batch-query-size", 100, 1, 10_000, SAME,
            "Rows read back per query.");
    public static final TaskKey<Long> MAX_PENDING_ROW_SIZE = K.custom("max-pending-row-size", "size", 500L << 20,
            "500m", 1, Long.MAX_VALUE, "above 0, such as 500m or 1g", SAME,
            "Bytes of pending rows at which the validator stops itself.", ValidatorKeys::pendingSize);
    public static final TaskKey<Long> MAX_PENDING_ROW_COUNT = K.longInteger("max-pending-row-count",
            Integer.MAX_VALUE, 1, Long.MAX_VALUE, SAME, "Pending rows at which the validator stops itself.");

    /** Every key of the section, in reading order. */
    public static final List<TaskKey<?>> ALL = K.declared();

    private ValidatorKeys() {
    }

    /** A duration where DM reads 0 (or leaving it out) as its default. */
    private static Duration positive(Section s, TaskKey<Duration> k) {
        Duration v = s.duration(k.name(), k.def());
        return v.isZero() ? k.def() : v;
    }

    private static long pendingSize(Section s, TaskKey<Long> k) {
        Optional<String> v = s.optionalText(k.name());
        if (v.isEmpty()) {
            return k.def();
        }
        Optional<Long> bytes = FileSize.bytes(v.get()).filter(b -> b > 0);
        if (bytes.isEmpty()) {
            s.problem(k.name(), "must be a size such as 500m or 1g, got " + s.shown(k.name()));
            return k.def();
        }
        return bytes.get();
    }
}
