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

    /**
     * Takes the files of {@code first}'s table that follow it in the queue and {@code fresh} accepts,
     * up to the table's share of the pool, so that one worker loads them with {@code first} as one
     * group; none by default.
     */
    default List<DumpDirectory.DataFile> claimFollowing(DumpDirectory.DataFile first,
                                                        java.util.function.Predicate<DumpDirectory.DataFile> fresh) {
        return List.of();
    }

    /**
     * The next file with the files {@link #claimFollowing} gives it when {@code groupable} accepts
     * it, as one step: no other worker takes a file of the group in between. Empty when no more
     * will come.
     */
    default List<DumpDirectory.DataFile> nextGroup(java.util.function.Predicate<DumpDirectory.DataFile> groupable)
            throws InterruptedException {
        synchronized (this) {
            DumpDirectory.DataFile first = next();
            if (first == null) {
                return List.of();
            }
            List<DumpDirectory.DataFile> group = new java.util.ArrayList<>(List.of(first));
            if (groupable.test(first)) {
                group.addAll(claimFollowing(first, groupable));
            }
            return group;
        }
    }

    /** A file handed out by {@link #next()} is finished on the target. */
    void finished(DumpDirectory.DataFile file);

    /**
     * The files of a {@link LoadPlan}, handed out in its order. A table's files are claimed as
     * groups of at most {@code ceil(files / ceil(workers / tables))}: with as many tables as workers
     * each table is one group, with fewer each table is split so that every worker has one; and of
     * at most {@link BulkLoader#MAX_GROUP_BYTES} on disk.
     */
    static FileQueue of(List<DumpDirectory.DataFile> plan, int workers) {
        Queue<DumpDirectory.DataFile> queue = new ConcurrentLinkedQueue<>(plan);
        java.util.Map<io.jdm.common.sql.TableName, Integer> perTable = new java.util.HashMap<>();
        plan.forEach(f -> perTable.merge(f.source(), 1, Integer::sum));
        int splits = Math.max(1, (workers + perTable.size() - 1) / Math.max(1, perTable.size()));
        return new FileQueue() {
            @Override
            public DumpDirectory.DataFile next() {
                return queue.poll();
            }

            @Override
            public synchronized List<DumpDirectory.DataFile> claimFollowing(
                    DumpDirectory.DataFile first, java.util.function.Predicate<DumpDirectory.DataFile> fresh) {
                int max = (perTable.get(first.source()) + splits - 1) / splits - 1;
                List<DumpDirectory.DataFile> out = new java.util.ArrayList<>();
                long bytes = first.size();
                for (DumpDirectory.DataFile f : plan) {
                    if (out.size() >= max) {
                        break;
                    }
                    if (f.source().equals(first.source()) && f.index() > first.index()) {
                        bytes += f.size();
                        if (bytes > BulkLoader.MAX_GROUP_BYTES || !fresh.test(f) || !queue.remove(f)) {
                            break; // groups are consecutive files of the table
                        }
                        out.add(f);
                    }
                }
                return out;
            }

            @Override
            public void finished(DumpDirectory.DataFile file) {
            }
        };
    }
}
