package io.jdm.embedded;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

class ContainerServersTest {

    @Test
    void withoutDockerTheContainerSuitesAreSkippedWithTheReason() {
        assumeFalse(dockerAvailable(), "a Docker engine exists here: the container suites run instead");
        TestAbortedException e = assertThrows(TestAbortedException.class, () -> ContainerServers.start("tidb"));
        assertTrue(e.getMessage().contains("needs a Docker engine"), e.getMessage());
    }

    private static boolean dockerAvailable() {
        try {
            return org.testcontainers.DockerClientFactory.instance().isDockerAvailable();
        } catch (Throwable t) {
            return false;
        }
    }
}
