package io.jdm.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(name = "load", mixinStandardHelpOptions = true, description = "Not available in this build yet.")
final class LoadCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new UsageError("load: not built yet in this version");
    }
}
