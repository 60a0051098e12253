package io.jdm.common.dumpdir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class FileManifestTest {
    @Test
    void rendersAndParsesBackEveryEntry() throws IOException {
        FileManifest m = FileManifest.of(List.of(new FileManifest.Entry("db.t.000000002.sql.gz", 0xfedcba98L, 10, 3),
                new FileManifest.Entry("db.t.000000001.sql", 0x1L, 1048576, 5000)));
        String text = m.render();
        assertEquals("# jdm data files: crc32c size rows name\n00000001 1048576 5000 db.t.000000001.sql\n"
                + "fedcba98 10 3 db.t.000000002.sql.gz\n", text);
        assertEquals(m, FileManifest.parse(List.of(text.split("\n"))));
    }

    @Test
    void aDamagedLineIsNamed() {
        IOException e = assertThrows(IOException.class, () -> FileManifest.parse(List.of("# x", "zz 1 2 a.b.1.sql")));
        assertEquals("jdm-files line 2 is not \"crc32c size rows name\": zz 1 2 a.b.1.sql", e.getMessage());
    }
}
