package io.jdm.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(name = "bench", mixinStandardHelpOptions = true, description = "Not available in this build yet.")
final class BenchCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new UsageError("bench: not built yet in this version");
    }
}
