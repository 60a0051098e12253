package io.jdm.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The bench's stand-in for a network: bytes intact and in order, each way held for the delay. */
class LatencyProxyTest {
    @Test
    void aRoundTripTakesTheDelayEachWayAndBytesArriveIntact() throws Exception {
        try (ServerSocket echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread server = new Thread(() -> {
                try (Socket s = echo.accept(); InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                    in.transferTo(out);
                } catch (Exception e) {
                    // the test ends the connection
                }
            });
            server.setDaemon(true);
            server.start();
            try (LatencyProxy proxy = LatencyProxy.start("127.0.0.1", echo.getLocalPort(), Duration.ofMillis(20));
                 Socket c = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
                DataInputStream in = new DataInputStream(c.getInputStream());
                long t0 = System.nanoTime();
                c.getOutputStream().write(1);
                in.readByte();
                long ms = (System.nanoTime() - t0) / 1_000_000;
                assertTrue(ms >= 40, "one round trip in " + ms + " ms, less than the 20 ms held each way twice");

                byte[] sent = new byte[3 * 1024 * 1024];
                new Random(1).nextBytes(sent);
                Thread writer = new Thread(() -> {
                    try {
                        c.getOutputStream().write(sent);
                    } catch (Exception e) {
                        // the assertion below says it
                    }
                });
                writer.start();
                byte[] got = new byte[sent.length];
                in.readFully(got);
                writer.join();
                assertArrayEquals(sent, got);
            }
        }
    }
}
