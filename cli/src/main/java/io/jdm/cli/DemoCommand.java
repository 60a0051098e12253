package io.jdm.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(name = "demo", mixinStandardHelpOptions = true, description = "Not available in this build yet.")
final class DemoCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new UsageError("demo: not built yet in this version");
    }
}
