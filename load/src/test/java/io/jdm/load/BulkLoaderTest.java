package io.jdm.load;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import org.junit.jupiter.api.Test;

class BulkLoaderTest {
    @Test
    void rowsAreReadAsBytesWhereNoCharacterIsConvertedOrOnlyToLatin1() {
        assertEquals("binary", BulkLoader.readAs("utf8mb4", Set.of("utf8mb4")));
        assertEquals("binary", BulkLoader.readAs("utf8mb4", Set.of()), "no text columns");
        assertEquals("binary", BulkLoader.readAs("utf8mb4", Set.of("utf8mb4", "latin1")), "latin1 converted here");
        assertEquals("binary", BulkLoader.readAs("utf8mb4", Set.of("latin1")));
        assertEquals("utf8mb4", BulkLoader.readAs("utf8mb4", Set.of("latin1", "latin2")), "latin2 converts there");
        assertEquals("binary", BulkLoader.readAs("utf8mb4", Set.of("utf8mb3")), "four-byte characters refused here");
        assertEquals("binary", BulkLoader.readAs("utf8mb4", Set.of("utf8", "latin1", "utf8mb4")), "MySQL 5.7's name");
        assertEquals("latin1", BulkLoader.readAs("latin1", Set.of("latin1")));
        assertEquals("binary", BulkLoader.readAs("binary", Set.of("utf8mb4")));
        assertEquals("utf8mb3", BulkLoader.readAs("utf8mb3", Set.of("utf8mb3")));
        assertEquals("utf8mb4", BulkLoader.readAs("utf8mb4", Set.of("utf8mb4", "inet6")), "an INET6 text is no raw INET6");
        assertEquals("utf8mb4", BulkLoader.readAs("utf8mb4", Set.of("uuid")));
    }
}
