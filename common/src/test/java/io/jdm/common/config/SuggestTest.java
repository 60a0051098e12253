package io.jdm.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SuggestTest {
    @Test
    void distance() {
        assertEquals(0, Suggest.distance("batch", "batch"));
        assertEquals(1, Suggest.distance("worker-cont", "worker-count"));
        assertEquals(3, Suggest.distance("kitten", "sitting"));
        assertEquals(5, Suggest.distance("", "batch"));
    }

    @Test
    void closestWithinThreeEditsFirstWinsTies() {
        List<String> keys = List.of("worker-count", "batch", "queue-size");
        assertEquals(Optional.of("worker-count"), Suggest.closest("workers-count", keys));
        assertEquals(Optional.of("batch"), Suggest.closest("bach", keys));
        assertEquals(Optional.empty(), Suggest.closest("threads", keys));
        assertEquals(Optional.empty(), Suggest.closest("b", List.of("dir")), "no suggestion longer than the word's worth");
        assertEquals(Optional.of("ab"), Suggest.closest("aa", List.of("ab", "ba")));
    }
}
