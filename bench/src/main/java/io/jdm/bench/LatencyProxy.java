package io.jdm.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP proxy on 127.0.0.1 that holds every chunk it forwards for a fixed delay, each way: a target
 * across a network (TiDB is never on loopback) where the kernel has no {@code tc netem}. Bytes keep
 * their order and the delay does not cap throughput: a chunk read now leaves {@code delay} later,
 * whatever is still queued before it. Each direction holds at most {@link #QUEUED} chunks of up to
 * 64 KiB, so a fast sender waits for the slow side as it would on a real link.
 */
public final class LatencyProxy implements AutoCloseable {
    private static final int CHUNK = 64 * 1024;
    private static final int QUEUED = 256;
    private static final byte[] END = new byte[0];

    private final ServerSocket listener;
    private final InetSocketAddress upstream;
    private final long delayNanos;

    private record Chunk(long dueNanos, byte[] bytes) {
    }

    private LatencyProxy(ServerSocket listener, InetSocketAddress upstream, Duration delay) {
        this.listener = listener;
        this.upstream = upstream;
        this.delayNanos = delay.toNanos();
    }

    /** Listens on an ephemeral port of 127.0.0.1 and forwards to {@code host:port}, {@code delay} each way. */
    public static LatencyProxy start(String host, int port, Duration delay) throws IOException {
        ServerSocket s = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        LatencyProxy p = new LatencyProxy(s, new InetSocketAddress(host, port), delay);
        daemon("latency-proxy-accept", p::accept).start();
        return p;
    }

    public int port() {
        return listener.getLocalPort();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket();
                server.connect(upstream, 10_000);
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                pipe(client, server);
                pipe(server, client);
            } catch (IOException e) {
                if (listener.isClosed()) {
                    return;
                }
            }
        }
    }

    /** Forwards {@code from}'s bytes to {@code to}, each chunk {@code delay} after it was read. */
    private void pipe(Socket from, Socket to) {
        BlockingQueue<Chunk> queue = new ArrayBlockingQueue<>(QUEUED);
        daemon("latency-proxy-read", () -> {
            byte[] buf = new byte[CHUNK];
            try (InputStream in = from.getInputStream()) {
                int n;
                while ((n = in.read(buf)) > 0) {
                    queue.put(new Chunk(System.nanoTime() + delayNanos, Arrays.copyOf(buf, n)));
                }
            } catch (IOException | InterruptedException e) {
                // the connection ended
            }
            try {
                queue.put(new Chunk(System.nanoTime() + delayNanos, END));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }).start();
        daemon("latency-proxy-write", () -> {
            try {
                OutputStream out = to.getOutputStream();
                while (true) {
                    Chunk c = queue.take();
                    long wait;
                    while ((wait = c.dueNanos() - System.nanoTime()) > 0) {
                        LockSupport.parkNanos(wait);
                    }
                    if (c.bytes() == END) {
                        break;
                    }
                    out.write(c.bytes());
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // the connection ended
            } finally {
                closeQuietly(to);
                closeQuietly(from);
            }
        }).start();
    }

    private static Thread daemon(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
    }
}
