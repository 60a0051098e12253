package io.jdm.common.dumpdir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileManifestTest {
    @Test
    void rendersAndParsesBackEveryEntry() throws IOException {
        FileManifest m = FileManifest.of(List.of(new FileManifest.Entry("db.t.000000002.sql.gz", 0xfedcba98L, 10, 3),
                new FileManifest.Entry("db.t.000000001.sql", 0x1L, 1048576, 5000)));
        String text = m.render();
        assertEquals("# jdm data files: crc32c size rows name (names as Dumpling escapes them)\n00000001 1048576 5000 db.t.000000001.sql\n"
                + "fedcba98 10 3 db.t.000000002.sql.gz\n", text);
        assertEquals(m, FileManifest.parse(List.of(text.split("\n"))));
    }

    @Test
    void olderJdmDumpsAreReadWithAtEscapesOthersWithPercent(@TempDir Path dir) throws IOException {
        assertEquals(DumpFileNames.Escaping.PERCENT, FileManifest.escaping(dir)); // Dumpling, mydumper
        FileManifest.of(List.of(new FileManifest.Entry("d.t.000000001.sql", 1, 2, 3))).writeTo(dir);
        assertEquals(DumpFileNames.Escaping.PERCENT, FileManifest.escaping(dir));
        Files.writeString(dir.resolve(FileManifest.NAME), "# jdm data files: crc32c size rows name\n"
                + "00000001 2 3 d.x@0020y.000000001.sql\n");
        assertEquals(DumpFileNames.Escaping.LEGACY_AT, FileManifest.escaping(dir));
    }

    @Test
    void aDamagedLineIsNamed() {
        IOException e = assertThrows(IOException.class, () -> FileManifest.parse(List.of("# x", "zz 1 2 a.b.1.sql")));
        assertEquals("jdm-files line 2 is not \"crc32c size rows name\": zz 1 2 a.b.1.sql", e.getMessage());
    }
}
