package io.jdm.embedded;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.opentest4j.TestAbortedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * TiDB through Testcontainers, for the same suites where a Docker engine exists (MySQL runs
 * embedded, see {@link ServerFlavor}).
 * Testcontainers is an optional dependency: modules that select these servers put it on their test
 * classpath.
 */
final class ContainerServers {
    private static final Logger LOG = LoggerFactory.getLogger(ContainerServers.class);

    private ContainerServers() {
    }

    static ServerPair start(String kind) {
        boolean docker;
        try {
            docker = org.testcontainers.DockerClientFactory.instance().isDockerAvailable();
        } catch (Throwable t) { // NoClassDefFoundError when Testcontainers is absent
            docker = false;
        }
        if (!docker) {
            String reason = "jdm.it.servers=" + kind + " needs a Docker engine and none is available: skipped";
            LOG.warn(reason);
            throw new TestAbortedException(reason);
        }
        return new ServerPair(tidb(), tidb());
    }

    @SuppressWarnings("resource")
    private static SqlServer tidb() {
        var c = new org.testcontainers.containers.GenericContainer<>("pingcap/tidb:v8.5.1")
                .withExposedPorts(4000);
        c.start();
        return new Container(c, "tidb", c.getHost(), c.getMappedPort(4000), "root", "");
    }

    private record Container(AutoCloseable handle, String flavor, String host, int port, String user,
                             String password) implements SqlServer {
        @Override
        public String jdbcUrl(String database) {
            return "jdbc:mysql://" + host + ":" + port + "/" + (database == null ? "" : database)
                    + "?useSSL=false&allowPublicKeyRetrieval=true&serverTimezone=UTC&allowLoadLocalInfile=true";
        }

        @Override
        public Connection connect() throws SQLException {
            return DriverManager.getConnection(jdbcUrl(null), user, password);
        }


        @Override
        public void close() {
            try {
                handle.close();
            } catch (Exception e) {
                LOG.warn("container {} did not stop: {}", flavor, e.getMessage());
            }
        }
    }
}
