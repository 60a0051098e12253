package io.jdm.common.config;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Reads and validates a task file. Every problem is collected and thrown together in one
 * {@link ConfigException}; a {@link TaskConfig} is only returned when there are none.
 *
 * <pre>{@code
 * TaskConfig task = new TaskConfigLoader().load(Path.of("conf/task-all.yaml"));
 * }</pre>
 */
public final class TaskConfigLoader {
    private final Function<String, String> env;

    /** Substitutes {@code ${VAR}} from the process environment. */
    public TaskConfigLoader() {
        this(System::getenv);
    }

    /** Substitutes {@code ${VAR}} from {@code env} (null means unset): tests pass a map's {@code get}. */
    public TaskConfigLoader(Function<String, String> env) {
        this.env = Objects.requireNonNull(env, "env");
    }

    /** Loads a task file; source files it names are resolved relative to its directory. */
    public TaskConfig load(Path file) {
        return load(file, List.of());
    }

    /**
     * Loads a task file with DM source files given apart from it (DM's {@code operate-source create}):
     * an instance that has only a {@code source-id} takes its connection from the one with that id.
     */
    public TaskConfig load(Path file, List<Path> sourceFiles) {
        String yaml;
        try {
            yaml = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw ConfigException.of("cannot read " + file + ": no such file");
        } catch (CharacterCodingException e) {
            throw ConfigException.of("cannot read " + file + ": not UTF-8 text");
        } catch (IOException e) {
            throw ConfigException.of("cannot read " + file + ": " + e.getClass().getSimpleName());
        }
        return parse(yaml, file.toAbsolutePath().getParent(), file.getFileName().toString(), sourceFiles);
    }

    /** Parses task YAML held in memory; messages call it {@code <string>}. */
    public TaskConfig parse(String yaml, Path baseDir) {
        return parse(yaml, baseDir, "<string>");
    }

    /** Parses task YAML held in memory; {@code sourceName} is what messages call it. */
    public TaskConfig parse(String yaml, Path baseDir, String sourceName) {
        return parse(yaml, baseDir, sourceName, List.of());
    }

    /** Parses task YAML held in memory with DM source files given apart from it (see {@link #load(Path, List)}). */
    public TaskConfig parse(String yaml, Path baseDir, String sourceName, List<Path> sourceFiles) {
        List<String> problems = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        ReadContext ctx = ReadContext.forTask(problems, warnings, sourceName, baseDir, env);
        SourceFiles sources = SourceFiles.read(sourceFiles, ctx);
        TaskConfig task = Section.document(yaml, ctx).map(r -> TaskReader.read(r, sources)).orElse(null);
        if (!problems.isEmpty() || task == null) {
            throw new ConfigException(problems);
        }
        return task;
    }
}
