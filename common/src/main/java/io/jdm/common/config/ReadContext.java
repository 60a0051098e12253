package io.jdm.common.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What the readers of one YAML file share: where problems and warnings go, how paths in them are prefixed,
 * the directory relative paths resolve against, and which values came from the environment
 * (those are never echoed back in a message, only the {@code ${VAR}} text the user wrote).
 */
final class ReadContext {
    private final List<String> problems;
    private final List<String> warnings;
    private final String sourceName;
    private final String prefix;
    private final Path baseDir;
    private final Function<String, String> env;
    private final Map<JsonNode, String> fromEnv = new IdentityHashMap<>();

    private ReadContext(List<String> problems, List<String> warnings, String sourceName, String prefix, Path baseDir,
                        Function<String, String> env) {
        this.problems = problems;
        this.warnings = warnings;
        this.sourceName = sourceName;
        this.prefix = prefix;
        this.baseDir = baseDir;
        this.env = env;
    }

    /** The task file: paths are printed as they are ({@code syncers.global.batch}). */
    static ReadContext forTask(List<String> problems, List<String> warnings, String sourceName, Path baseDir,
                               Function<String, String> env) {
        return new ReadContext(problems, warnings, sourceName, "", baseDir, env);
    }

    /** A file the task refers to: paths are printed after its name ({@code mysql-01.yaml: from.port}). */
    ReadContext forReferencedFile(String name, Path dir) {
        return new ReadContext(problems, warnings, name, name + ": ", dir, env);
    }

    void problem(String path, String message) {
        problems.add(line(path, message));
    }

    /** A setting read differently from how it is written, or not used at all; the task still runs. */
    void warning(String path, String message) {
        String line = line(path, message);
        if (!warnings.contains(line)) {
            warnings.add(line);
        }
    }

    private String line(String path, String message) {
        return path.isEmpty() ? sourceName + ": " + message : prefix + path + ": " + message;
    }

    List<String> problems() {
        return problems;
    }

    List<String> warnings() {
        return warnings;
    }

    String sourceName() {
        return sourceName;
    }

    Path baseDir() {
        return baseDir;
    }

    Function<String, String> env() {
        return env;
    }

    void markFromEnv(JsonNode node, String original) {
        fromEnv.put(node, original);
    }

    /** The text written in the file for a substituted value, or null when the value was written literally. */
    String envOriginal(JsonNode node) {
        return fromEnv.get(node);
    }
}
