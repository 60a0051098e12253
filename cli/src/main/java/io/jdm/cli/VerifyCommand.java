package io.jdm.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(name = "verify", mixinStandardHelpOptions = true, description = "Not available in this build yet.")
final class VerifyCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new UsageError("verify: not built yet in this version");
    }
}
