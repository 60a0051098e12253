package io.jdm.common.config;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Small task files for tests, and shortcuts to load them. */
final class Tasks {
    /** The smallest valid task; tests append top-level sections to it. */
    static final String MINIMAL = """
            name: t1
            task-mode: all
            target-database:
              host: 127.0.0.1
              user: root
            mysql-instances:
              - source-id: s1
                from:
                  host: 127.0.0.1
                  user: root
            """;

    private Tasks() {
    }

    /** MINIMAL with {@code lines} (indented by 4) added to the instance. */
    static String inInstance(String lines) {
        return MINIMAL.replace("  - source-id: s1\n", "  - source-id: s1\n" + lines);
    }

    /** MINIMAL with {@code lines} (indented by 2) added to target-database. */
    static String inTarget(String lines) {
        int at = MINIMAL.indexOf("  user: root\n") + "  user: root\n".length();
        return MINIMAL.substring(0, at) + lines + MINIMAL.substring(at);
    }

    static TaskConfig parse(String yaml) {
        return parse(yaml, Map.of());
    }

    static TaskConfig parse(String yaml, Map<String, String> env) {
        return new TaskConfigLoader(env::get).parse(yaml, Path.of("."));
    }

    static List<String> problems(String yaml) {
        return problems(yaml, Map.of());
    }

    static List<String> problems(String yaml, Map<String, String> env) {
        return assertThrows(ConfigException.class, () -> parse(yaml, env)).problems();
    }
}
