package io.jdm.common.config;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * Continuous validation (an entry of {@code validators:}, named by an instance's
 * {@code validator-config-name}): while the sync runs, each row it committed is read back from the
 * target and compared with the change that wrote it. Defaults are DM's ({@link ValidatorKeys}).
 *
 * @param mode what a row is compared by: {@link Mode#FULL} every column, {@link Mode#FAST} existence
 *     only, {@link Mode#NONE} not validated (DM's default)
 * @param workerCount the target connections that read rows back
 * @param validateInterval how often pending rows are compared
 * @param checkInterval how often the running task looks for {@code jdm validation start|stop}
 * @param rowErrorDelay how long a row may keep differing before it is an error row
 * @param metaFlushInterval how often the pending rows and counters are saved in the meta schema
 * @param batchQuerySize the rows read back per query
 * @param maxPendingRowSize the bytes of pending rows at which the validator stops itself
 * @param maxPendingRowCount the pending rows at which the validator stops itself
 */
public record ValidatorConfig(Mode mode, int workerCount, Duration validateInterval, Duration checkInterval,
                              Duration rowErrorDelay, Duration metaFlushInterval, int batchQuerySize,
                              long maxPendingRowSize, long maxPendingRowCount) {
    /** DM's validation modes, by their task-file names. */
    public enum Mode {
        NONE, FAST, FULL;

        public String yamlName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public ValidatorConfig {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(validateInterval, "validateInterval");
        Objects.requireNonNull(checkInterval, "checkInterval");
        Objects.requireNonNull(rowErrorDelay, "rowErrorDelay");
        Objects.requireNonNull(metaFlushInterval, "metaFlushInterval");
    }

    /** DM's defaults: mode none. */
    public static ValidatorConfig defaults() {
        return new ValidatorConfig(ValidatorKeys.MODE.def(), ValidatorKeys.WORKER_COUNT.def(),
                ValidatorKeys.VALIDATE_INTERVAL.def(), ValidatorKeys.CHECK_INTERVAL.def(),
                ValidatorKeys.ROW_ERROR_DELAY.def(), ValidatorKeys.META_FLUSH_INTERVAL.def(),
                ValidatorKeys.BATCH_QUERY_SIZE.def(), ValidatorKeys.MAX_PENDING_ROW_SIZE.def(),
                ValidatorKeys.MAX_PENDING_ROW_COUNT.def());
    }

    /** This config in another mode ({@code jdm validation start --mode}). */
    public ValidatorConfig withMode(Mode m) {
        return new ValidatorConfig(m, workerCount, validateInterval, checkInterval, rowErrorDelay, metaFlushInterval,
                batchQuerySize, maxPendingRowSize, maxPendingRowCount);
    }

    public boolean enabled() {
        return mode != Mode.NONE;
    }
}
