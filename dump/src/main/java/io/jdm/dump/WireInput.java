package io.jdm.dump;

import com.mysql.cj.NativeSession;
import com.mysql.cj.conf.PropertyKey;
import com.mysql.cj.jdbc.result.ResultSetImpl;
import com.mysql.cj.protocol.FullReadInputStream;
import com.mysql.cj.protocol.SocketConnection;
import com.mysql.cj.protocol.a.NativeProtocol;
import java.io.IOException;
import java.io.InputStream;
import java.sql.ResultSet;

/**
 * The bytes a Connector/J connection reads from the server, buffered where the dump can look at
 * them: installed under the driver's packet reader ({@link #of}), it serves the driver as its own
 * buffer did, and lets {@link PacketRows} parse a row packet where it lies in the buffer and skip it,
 * instead of the driver reading its header and copying its payload. It holds at most
 * {@link #CAPACITY} bytes; a packet that does not fit is left to the driver. Not synchronised: one
 * thread reads a connection at a time (the driver's own buffer takes a lock per read).
 */
final class WireInput extends InputStream {
    /** The buffer's size: a read from the socket takes up to this many bytes. */
    static final int CAPACITY = 64 * 1024;

    private final InputStream in;
    private final byte[] buf = new byte[CAPACITY];
    private int pos;
    private int limit;

    private WireInput(InputStream in) {
        this.in = in;
    }

    /**
     * The buffer under the connection {@code rs} is read from, installed on first use; null when
     * the connection compresses its packets (the buffer would hold compressed bytes) or is not
     * Connector/J's.
     */
    static WireInput of(ResultSet rs) throws IOException {
        if (!(rs instanceof ResultSetImpl impl) || !(impl.getSession() instanceof NativeSession session)) {
            return null;
        }
        NativeProtocol p = session.getProtocol();
        if (p.getPropertySet().getBooleanProperty(PropertyKey.useCompression).getValue()) {
            return null;
        }
        SocketConnection socket = p.getSocketConnection();
        FullReadInputStream current = socket.getMysqlInput();
        if (current.getUnderlyingStream() instanceof WireInput w) {
            return w;
        }
        WireInput w = new WireInput(current.getUnderlyingStream());
        socket.setMysqlInput(new FullReadInputStream(w));
        return w;
    }

    /** The buffer; bytes {@link #position()} to {@link #limit()} are those not read yet. */
    byte[] buffer() {
        return buf;
    }

    int position() {
        return pos;
    }

    int limit() {
        return limit;
    }

    /** Marks {@code n} buffered bytes read. */
    void consume(int n) {
        pos += n;
    }

    /**
     * Buffers at least {@code n} unread bytes (at most {@link #CAPACITY}), reading from the server as
     * needed; false when the stream ends first.
     */
    boolean want(int n) throws IOException {
        if (limit - pos >= n) {
            return true;
        }
        if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, limit - pos);
            limit -= pos;
            pos = 0;
        }
        while (limit < n) {
            int r = in.read(buf, limit, buf.length - limit);
            if (r < 0) {
                return false;
            }
            limit += r;
        }
        return true;
    }

    @Override
    public int read() throws IOException {
        if (pos == limit && !want(1)) {
            return -1;
        }
        return buf[pos++] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (pos == limit) {
            if (len >= buf.length) {
                return in.read(b, off, len);
            }
            if (!want(1)) {
                return -1;
            }
        }
        int n = Math.min(len, limit - pos);
        System.arraycopy(buf, pos, b, off, n);
        pos += n;
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        if (n <= 0) {
            return 0;
        }
        if (pos == limit) {
            return in.skip(n);
        }
        int k = (int) Math.min(n, limit - pos);
        pos += k;
        return k;
    }

    @Override
    public int available() throws IOException {
        return limit - pos + in.available();
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
