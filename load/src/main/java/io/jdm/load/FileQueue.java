package io.jdm.load;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Where the load workers take their files from: a plan made from a complete dump directory, or the
 * files of a dump that is still being written ({@link ArrivingFiles}).
 */
interface FileQueue {
    /** The next file to load, waiting while none is there yet; null when no more will come. */
    DumpDirectory.DataFile next() throws InterruptedException;

    /** A file handed out by {@link #next()} is finished on the target. */
    void finished(DumpDirectory.DataFile file);

    /** The files of a {@link LoadPlan}, handed out in its order. */
    static FileQueue of(List<DumpDirectory.DataFile> plan) {
        Queue<DumpDirectory.DataFile> queue = new ConcurrentLinkedQueue<>(plan);
        return new FileQueue() {
            @Override
            public DumpDirectory.DataFile next() {
                return queue.poll();
            }

            @Override
            public void finished(DumpDirectory.DataFile file) {
            }
        };
    }
}
