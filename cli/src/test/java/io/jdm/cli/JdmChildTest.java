package io.jdm.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The test children's JVM options are the launcher's: a change to one that the other misses fails here. */
class JdmChildTest {
    @Test
    void everyOptionOfTheChildIsTheLaunchers() throws Exception {
        String launcher = Files.readString(Path.of("..", "jdm"));
        for (String option : JdmChild.LAUNCHER_OPTIONS) {
            assertTrue(launcher.contains(option), "the launcher ./jdm no longer gives " + option);
        }
    }
}
