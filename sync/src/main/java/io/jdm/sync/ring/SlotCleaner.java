package io.jdm.sync.ring;

import com.lmax.disruptor.EventHandler;

/**
 * The ring's last stage: once every writer has passed a slot, drops its references, so a change
 * lives no longer than the writer that applies it keeps it. Without this, each of the ring's slots
 * would hold its last change until the reader reuses the slot a whole ring later, and the
 * {@link ByteBudget} would bound nothing.
 */
public final class SlotCleaner implements EventHandler<RingSlot> {
    @Override
    public void onEvent(RingSlot slot, long sequence, boolean endOfBatch) {
        slot.change = null;
        slot.ddl = null;
        slot.keys = null;
    }
}
