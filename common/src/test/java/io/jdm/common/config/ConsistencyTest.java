package io.jdm.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ConsistencyTest {
    @Test
    void theMetadataLabelNamesTheModeAndWhetherItsPositionIsExact() {
        for (Consistency c : Consistency.values()) {
            assertEquals(Optional.of(c), Consistency.ofLabel(c.label()));
        }
        assertEquals(Optional.of(Consistency.LOCK_FREE), Consistency.ofLabel(" Lock-Free "));
        assertEquals(Optional.empty(), Consistency.ofLabel("snapshot-ish"));
        assertEquals(Optional.empty(), Consistency.ofLabel(null));
        assertEquals(List.of(Consistency.FLUSH, Consistency.LOCK, Consistency.LOCK_FREE, Consistency.SNAPSHOT),
                Arrays.stream(Consistency.values()).filter(Consistency::exactPosition).toList());
    }
}
