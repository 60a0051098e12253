package io.jdm.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(name = "run", mixinStandardHelpOptions = true, description = "Not available in this build yet.")
final class RunCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new UsageError("run: not built yet in this version");
    }
}
