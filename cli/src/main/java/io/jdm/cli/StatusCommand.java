package io.jdm.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(name = "status", mixinStandardHelpOptions = true, description = "Not available in this build yet.")
final class StatusCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new UsageError("status: not built yet in this version");
    }
}
