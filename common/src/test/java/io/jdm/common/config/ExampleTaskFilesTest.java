package io.jdm.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The task files shipped in conf/ must load, with and without the environment set. */
class ExampleTaskFilesTest {
    @ParameterizedTest
    @ValueSource(strings = {"task-all.yaml", "task-full.yaml", "task-incremental.yaml"})
    void validates(String name) {
        Path file = confDir().resolve(name);
        TaskConfig t = new TaskConfigLoader(Map.<String, String>of()::get).load(file);
        assertEquals(4000, t.targetDatabase().port());
        assertEquals(3306, t.mysqlInstances().get(0).from().port());
        assertTrue(t.targetDatabase().password().isEmpty());

        Map<String, String> env = Map.of("JDM_SOURCE_PORT", "13306", "JDM_TARGET_PORT", "14000",
                "JDM_SOURCE_PASSWORD", "sp", "JDM_TARGET_PASSWORD", "tp");
        TaskConfig withEnv = new TaskConfigLoader(env::get).load(file);
        assertEquals(14000, withEnv.targetDatabase().port());
        assertEquals(13306, withEnv.mysqlInstances().get(0).from().port());
        assertEquals("sp", withEnv.mysqlInstances().get(0).from().password().reveal());
        assertEquals("tp", withEnv.targetDatabase().password().reveal());
    }

    /** conf/ at the repository root, found from wherever the build runs. */
    private static Path confDir() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("conf/task-all.yaml"))) {
                return p.resolve("conf");
            }
        }
        throw new IllegalStateException("conf/task-all.yaml not found above the working directory");
    }
}
