package io.jdm.common.jdbc;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;

/**
 * Key stores on disk for Connector/J, which reads them from URLs only. They hold a client key, so
 * they go into a fresh directory only the process owner can open, and both are deleted when the
 * JVM exits.
 */
final class KeyStoreFiles {
    private static final FileAttribute<?> OWNER_ONLY_DIR =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
    private static final FileAttribute<?> OWNER_ONLY_FILE =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));

    private final Path dir;

    private KeyStoreFiles(Path dir) {
        this.dir = dir;
    }

    static KeyStoreFiles create() {
        try {
            Path dir;
            try {
                dir = Files.createTempDirectory("jdm-tls-", OWNER_ONLY_DIR);
            } catch (UnsupportedOperationException notPosix) {
                dir = Files.createTempDirectory("jdm-tls-"); // per-user temporary directory on such systems
            }
            dir.toFile().deleteOnExit(); // registered first, so deleted after the files in it
            return new KeyStoreFiles(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a private directory for the TLS key stores: "
                    + e.getMessage(), e);
        }
    }

    /** Writes {@code store} as {@code name}, readable by the owner only; returns its URL. */
    String write(String name, KeyStore store, char[] password) {
        Path file = dir.resolve(name);
        try {
            try {
                Files.createFile(file, OWNER_ONLY_FILE);
            } catch (UnsupportedOperationException notPosix) {
                Files.createFile(file);
            }
            file.toFile().deleteOnExit();
            try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.TRUNCATE_EXISTING)) {
                store.store(out, password);
            }
            return file.toUri().toString();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the TLS key store " + file + ": " + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot write the TLS key store " + file + ": " + e.getMessage(), e);
        }
    }
}
