package io.jdm.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** {@code --source FILE}: DM source files, as {@code dmctl operate-source create} would be given them. */
final class SourceOptions {
    @Option(names = "--source", paramLabel = "SOURCE.yaml",
            description = "A DM source file (repeatable); an instance with only a source-id takes its connection "
                    + "from the file with that source-id.")
    List<Path> files = new ArrayList<>();
}
