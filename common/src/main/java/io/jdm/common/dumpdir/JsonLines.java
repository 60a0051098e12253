package io.jdm.common.dumpdir;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The one JSON mapper of the lock-free dump's bookkeeping files ({@link ChunkPlan},
 * {@link ChunkJournal}), built on first use: a dump in one snapshot, which only asks whether those
 * files exist, never pays for it (building it costs a cold process some 50 ms before its first
 * chunk is read).
 */
final class JsonLines {
    static final ObjectMapper MAPPER = new ObjectMapper();

    private JsonLines() {
    }
}
