package io.jdm.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(name = "check", mixinStandardHelpOptions = true, description = "Not available in this build yet.")
final class CheckCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new UsageError("check: not built yet in this version");
    }
}
