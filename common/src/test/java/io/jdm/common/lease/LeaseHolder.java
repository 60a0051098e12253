package io.jdm.common.lease;

import io.jdm.common.jdbc.ConnectionSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A process that takes one source's lease, renews it and holds it until killed: the live owner
 * other processes meet. Prints {@code held} once it holds the lease.
 * Arguments: host port user password meta-schema task source-id renew-ms expiry-ms.
 */
final class LeaseHolder {
    private LeaseHolder() {
    }

    public static void main(String[] args) throws Exception {
        ConnectionSpec target = ConnectionSpec.of(args[0], Integer.parseInt(args[1]), args[2], args[3]);
        TaskLease.Timing timing = new TaskLease.Timing(Duration.ofMillis(Long.parseLong(args[7])),
                Duration.ofMillis(Long.parseLong(args[8])));
        TaskLease lease = TaskLease.acquire(target, args[4], args[5], args[6], timing);
        lease.keepRenewing(m -> System.out.println("lost: " + m));
        System.out.println("held");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }

    /** Starts one in a child JVM on this class path, its output in {@code out}. */
    static Process start(Path out, ConnectionSpec target, String meta, String task, String sourceId,
                         TaskLease.Timing timing) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), LeaseHolder.class.getName()));
        cmd.addAll(List.of(target.host(), Integer.toString(target.port()), target.user(), target.password(), meta,
                task, sourceId, Long.toString(timing.renewEvery().toMillis()),
                Long.toString(timing.expiry().toMillis())));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
    }
}
