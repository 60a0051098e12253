package io.jdm.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(name = "sync", mixinStandardHelpOptions = true, description = "Not available in this build yet.")
final class SyncCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new UsageError("sync: not built yet in this version");
    }
}
