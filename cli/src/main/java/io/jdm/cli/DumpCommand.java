package io.jdm.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(name = "dump", mixinStandardHelpOptions = true, description = "Not available in this build yet.")
final class DumpCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new UsageError("dump: not built yet in this version");
    }
}
