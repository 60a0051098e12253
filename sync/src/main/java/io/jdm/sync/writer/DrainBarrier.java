package io.jdm.sync.writer;

import io.jdm.common.error.FatalException;
import java.util.concurrent.Phaser;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * Where all writers meet: each arrives after committing, and none goes on until all have. Waits
 * are timed so a writer never hangs behind one that died: the unit's failure flag ends them.
 */
public final class DrainBarrier {
    private final Phaser phaser;
    private final BooleanSupplier aborted;

    public DrainBarrier(int writers, BooleanSupplier aborted) {
        this.phaser = new Phaser(writers);
        this.aborted = aborted;
    }

    void await() throws InterruptedException {
        int phase = phaser.arrive();
        while (true) {
            try {
                phaser.awaitAdvanceInterruptibly(phase, 200, TimeUnit.MILLISECONDS);
                return;
            } catch (TimeoutException e) {
                if (aborted.getAsBoolean()) {
                    throw new FatalException("sync: writer stopped at a drain because another stage failed");
                }
            }
        }
    }
}
