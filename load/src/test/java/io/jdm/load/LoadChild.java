package io.jdm.load;

import io.jdm.common.config.DeferIndexes;
import io.jdm.common.error.JdmException;
import io.jdm.common.jdbc.ConnectionSpec;
import java.nio.file.Path;

/**
 * Runs one load in its own JVM, so a fault test can kill it with SIGKILL at any instant.
 * Arguments: host port dumpDir task poolSize transactionBytes [maxRetries maxBackoffSeconds].
 * Exit 0 when the load completed, 3 with the one-line message on a load error.
 */
public final class LoadChild {
    private LoadChild() {
    }

    public static void main(String[] args) {
        LoadConfig cfg = LoadConfig.of(args[3], "src1", ConnectionSpec.of(args[0], Integer.parseInt(args[1]), "root", ""),
                Path.of(args[2])).withPoolSize(Integer.parseInt(args[4]))
                .withTransactionBytes(Long.parseLong(args[5])).withDeferIndexes(DeferIndexes.ALWAYS);
        if (args.length > 7) {
            cfg = cfg.withRetry(Integer.parseInt(args[6]), Integer.parseInt(args[7]));
        }
        try {
            LoadResult r = new LoadUnit(cfg).run();
            System.out.println("LOAD-DONE files=" + r.files() + " rows=" + r.rows());
            System.exit(0);
        } catch (JdmException e) {
            System.out.println("LOAD-FAILED " + e.getMessage());
            System.exit(3);
        }
    }
}
