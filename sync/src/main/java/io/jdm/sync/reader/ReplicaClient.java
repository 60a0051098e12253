package io.jdm.sync.reader;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.network.protocol.command.QueryCommand;
import io.jdm.common.jdbc.ConnectionSpec;
import java.io.IOException;

/**
 * The binlog library's client with two things it does not do on its own, each through the one
 * protected hook that reaches it:
 *
 * <ul>
 *   <li>It logs in users of every plugin the JDBC connections log in with: the first packet whose
 *       error {@code connect()} checks is the server's greeting, read just before it authenticates,
 *       and there the {@link LoginChannel} takes its place in front of the library's channel.
 *   <li>It says it reads checksums whatever the source logs now, as a native replica does. The
 *       library says so only while binlog_checksum is not NONE, and a source refuses to send files
 *       written with CRC32 before a switch to NONE to a replica that has not ("Slave can not handle
 *       replication events with the checksum ..."). The events are read right either way: the
 *       deserializer takes the checksum of each file from its FORMAT_DESCRIPTION event.
 * </ul>
 */
final class ReplicaClient extends BinaryLogClient {
    /**
     * The library logs through java.util.logging under the name of its client's class, this one's,
     * which the warnings-only level the command sets on the library's package does not reach: kept to
     * warnings here too (a strong reference: JUL holds its loggers weakly).
     */
    private static final java.util.logging.Logger JUL = java.util.logging.Logger.getLogger(ReplicaClient.class.getName());

    static {
        JUL.setLevel(java.util.logging.Level.WARNING);
    }

    private final ConnectionSpec source;

    ReplicaClient(ConnectionSpec source) {
        super(source.host(), source.port(), source.user(), source.password());
        this.source = source;
    }

    @Override
    protected void checkError(byte[] packet) throws IOException {
        super.checkError(packet);
        if (!(channel instanceof LoginChannel)) {
            channel = new LoginChannel(channel, packet, source.password(), source.rsaKey());
        }
    }

    @Override
    protected void setupConnection() throws IOException {
        channel.write(new QueryCommand("SET @master_binlog_checksum = @@global.binlog_checksum"));
        checkError(channel.read());
        super.setupConnection();
    }
}
