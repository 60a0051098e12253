package io.jdm.sync.reader;

import io.jdm.embedded.FreePorts;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback port where nothing listens (connections are refused) until {@link #openAfter}; from
 * then on every connection is forwarded to a real server: a server that is down and comes back.
 */
final class LatePort implements AutoCloseable {
    private final int port = FreePorts.find();
    private final String host;
    private final int to;
    private final AtomicInteger accepted = new AtomicInteger();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile ServerSocket server;
    private volatile boolean closed;

    LatePort(String host, int to) {
        this.host = host;
        this.to = to;
    }

    int port() {
        return port;
    }

    /** Connections accepted since the port opened. */
    int accepted() {
        return accepted.get();
    }

    /** Starts listening once {@code delay} has passed. */
    void openAfter(Duration delay) {
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(delay.toMillis());
                server = new ServerSocket(port, 50, InetAddress.getLoopbackAddress());
                while (!closed) {
                    Socket in = server.accept();
                    Socket out = new Socket(host, to);
                    sockets.add(in);
                    sockets.add(out);
                    accepted.incrementAndGet();
                    pump(in, out);
                    pump(out, in);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException e) {
                // closed
            }
        }, "late-port-" + port);
        t.setDaemon(true);
        t.start();
    }

    private static void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                in.transferTo(out);
            } catch (IOException e) {
                // one side closed
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "late-port-pump");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() {
        closed = true;
        if (server != null) {
            try {
                server.close();
            } catch (IOException ignored) {
                // closing
            }
        }
        sockets.forEach(LatePort::closeQuietly);
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing
        }
    }
}
