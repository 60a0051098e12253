package io.jdm.sync.reader;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.network.SSLMode;
import com.github.shyiko.mysql.binlog.network.ServerException;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.Tls;
import io.jdm.common.position.BinlogPosition;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.sql.SQLException;
import java.util.function.Consumer;
import java.util.function.Predicate;
import javax.net.ssl.SSLSocket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One binlog connection to the source at a time: a BinaryLogClient set up as a replica (server id,
 * file/position or GTID set, heartbeat, socket read timeout, TLS as the JDBC connections have it,
 * the deserializers), run on the calling thread until the connection ends. Reconnecting is not its
 * business: it says why the connection ended, and {@link StreamSupervisor} decides.
 */
final class BinlogConnection {
    private static final Logger LOG = LoggerFactory.getLogger(BinlogConnection.class);

    private final BinlogReader.Settings settings;
    private final Predicate<Event> events;
    private final Consumer<Exception> undecodable;
    private volatile BinaryLogClient client;
    private volatile Exception connectionFailure;

    /**
     * @param events gets every event; returns false when the connection should close
     * @param undecodable gets an event the deserializers could not read; the connection then closes
     */
    BinlogConnection(BinlogReader.Settings settings, Predicate<Event> events, Consumer<Exception> undecodable) {
        this.settings = settings;
        this.events = events;
        this.undecodable = undecodable;
    }

    /**
     * Streams from {@code from} until the connection ends, and returns why: the server's error as
     * an {@link SQLException} with its code (so the one classifier judges it as any server error),
     * an I/O failure, or null when the connection closed without one: by the server, by
     * {@link #close()} or by the event consumer.
     */
    Exception stream(BinlogPosition from) {
        BinaryLogClient c = newClient(from);
        client = c;
        connectionFailure = null;
        try {
            c.connect();
        } catch (IOException | RuntimeException e) {
            return asServerError(e);
        } finally {
            disconnect(c);
        }
        return asServerError(connectionFailure);
    }

    /** Closes the current connection, from any thread; {@link #stream} then returns. */
    void close() {
        disconnect(client);
    }

    /** The error packet a server sent, as the SQL error it is; other failures as they are. */
    private static Exception asServerError(Exception e) {
        if (e instanceof ServerException se) {
            // not chained: the library's exception is an IOException, which the classifier would retry
            SQLException s = new SQLException(se.getMessage(), se.getSqlState(), se.getErrorCode());
            s.setStackTrace(se.getStackTrace());
            return s;
        }
        return e;
    }

    private BinaryLogClient newClient(BinlogPosition from) {
        ConnectionSpec s = settings.source();
        BinaryLogClient c = new ReplicaClient(s);
        c.setServerId(settings.serverId());
        c.setKeepAlive(false); // reconnects are ours: they must resume from our position, not the client's
        c.setBlocking(true);
        c.setHeartbeatInterval(settings.heartbeat().toMillis());
        c.setConnectTimeout(s.connectTimeoutSeconds() * 1000L);
        // sha256_password and caching_sha2_password users log in over TLS, else with the server's RSA
        // key as the task allows it (ServerRsaKey), the way the JDBC connections do: see LoginChannel
        // The library's VERIFY_IDENTITY checks the socket's host name, which for a host given as an IP
        // address is that address looked up in reverse DNS: it would refuse a certificate naming the
        // IP address the task gives, and take one named after whatever the PTR record says. So the
        // library gets VERIFY_CA, and the host as the task file gives it is checked in the handshake
        // itself (Tls#upgrade), as Connector/J's VERIFY_IDENTITY does on the JDBC connections.
        c.setSSLMode(s.tls().map(t -> t.verifiesServer() ? SSLMode.VERIFY_CA : SSLMode.REQUIRED)
                .orElse(SSLMode.DISABLED));
        s.tls().ifPresent(t -> c.setSslSocketFactory(socket -> upgrade(t, socket, s.host())));
        c.setEventDeserializer(Deserializers.create(settings.selected()));
        int readTimeout = (int) Math.max(10_000, settings.heartbeat().toMillis() * 5);
        c.setSocketFactory(() -> {
            Socket sock = new Socket();
            sock.setSoTimeout(readTimeout); // heartbeats keep a live stream busy; silence means it is dead
            sock.setTcpNoDelay(true);
            return sock;
        });
        if (settings.useGtid() && from.hasGtid()) {
            c.setGtidSet(from.gtidSet());
        } else {
            c.setBinlogFilename(from.file());
            c.setBinlogPosition(Math.max(4, from.pos()));
        }
        c.registerEventListener(event -> {
            if (!events.test(event)) {
                disconnect(c);
            }
        });
        c.registerLifecycleListener(new BinaryLogClient.AbstractLifecycleListener() {
            @Override
            public void onConnect(BinaryLogClient client) {
                LOG.info("sync: streaming the binlog of {} from {}", s.address(), from);
            }

            @Override
            public void onCommunicationFailure(BinaryLogClient client, Exception ex) {
                connectionFailure = ex;
            }

            @Override
            public void onEventDeserializationFailure(BinaryLogClient client, Exception ex) {
                undecodable.accept(ex);
                disconnect(client);
            }
        });
        return c;
    }

    /** The same TLS as the JDBC connections (CA, host name, client certificate), on the binlog connection. */
    private static SSLSocket upgrade(Tls tls, Socket socket, String host) throws SocketException {
        try {
            return tls.upgrade(socket, host);
        } catch (SocketException e) {
            throw e;
        } catch (IOException e) {
            SocketException failed = new SocketException("cannot start TLS: " + e.getMessage());
            failed.initCause(e);
            throw failed;
        }
    }

    private static void disconnect(BinaryLogClient c) {
        if (c != null) {
            try {
                c.disconnect();
            } catch (IOException e) {
                LOG.debug("binlog client disconnect: {}", e.getMessage());
            }
        }
    }
}
