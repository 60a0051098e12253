package io.jdm.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code --source-id ID}: the sources of the task this process runs, so that one task can be run
 * by several processes, one per source (each takes only its own sources' leases).
 */
final class SourceIdOptions {
    @Option(names = "--source-id", paramLabel = "ID",
            description = "Run only this source of the task (repeatable; default: every source). Each process "
                    + "of a task run this way takes only the leases of its own sources.")
    List<String> ids = new ArrayList<>();
}
