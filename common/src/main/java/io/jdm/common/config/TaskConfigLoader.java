package io.jdm.common.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
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
        return parse(yaml, file.toAbsolutePath().getParent(), file.getFileName().toString());
    }

    /** Parses task YAML held in memory; messages call it {@code <string>}. */
    public TaskConfig parse(String yaml, Path baseDir) {
        return parse(yaml, baseDir, "<string>");
    }

    /** Parses task YAML held in memory; {@code sourceName} is what messages call it. */
    public TaskConfig parse(String yaml, Path baseDir, String sourceName) {
        List<String> problems = new ArrayList<>();
        ReadContext ctx = ReadContext.forTask(problems, sourceName, baseDir, env);
        JsonNode tree = YamlTree.read(yaml, ctx);
        Optional<Section> root = Optional.empty();
        if (tree != null) {
            EnvSubstitution.apply(tree, ctx);
            root = Section.of(tree, "", ctx);
        }
        TaskConfig task = root.map(TaskReader::read).orElse(null);
        if (!problems.isEmpty() || task == null) {
            throw new ConfigException(problems);
        }
        return task;
    }
}
