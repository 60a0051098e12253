package io.jdm.cli;

import io.jdm.common.config.Section;
import io.jdm.common.lease.LeaseWait;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code --lease-wait DURATION}: how long a start waits for a source's lease that another live
 * process holds. Waiting by default lets a scheduler's restart converge (a killed owner elsewhere
 * frees its lease when it expires); {@code 0} keeps the refusal at once, for scripts that start a
 * second process only to learn whether one runs. A command-line option, not a task key: DM has no
 * such key (its workers' leases are dm-master's), and it is how one process is started, not the task.
 */
final class LeaseOptions {
    @Option(names = "--lease-wait", paramLabel = "DURATION", converter = WaitConverter.class,
            description = "When another live process holds a source's lease: wait at most this long for it "
                    + "(a duration such as 90s or 10m; 0 refuses at once, exit 1). Default: wait until it is "
                    + "free. An owner on this host that died is replaced at once either way.")
    Duration limit;

    /** A new wait (each command run has its own, which its signal handler stops). */
    LeaseWait leaseWait() {
        return limit == null ? LeaseWait.untilTaken() : LeaseWait.upTo(limit);
    }

    /** A Go-style duration, as the task file's durations. */
    static final class WaitConverter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            return Section.goDuration(value).orElseThrow(() -> new TypeConversionException(
                    "must be a duration such as 90s or 10m, or 0 to refuse at once, got '" + value + "'"));
        }
    }
}
