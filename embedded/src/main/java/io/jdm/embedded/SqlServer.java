package io.jdm.embedded;

import java.sql.Connection;
import java.sql.SQLException;

/** A running database server that a test or the demo can connect to over TCP. */
public interface SqlServer extends AutoCloseable {
    String host();

    int port();

    String user();

    String password();

    /** One of {@code mariadb}, {@code mysql}, {@code tidb}. */
    String flavor();

    String jdbcUrl(String database);

    Connection connect() throws SQLException;

    void execute(String... sql);

    void freshDatabase(String database);

    @Override
    void close();
}
