package io.jdm.load;

import io.jdm.common.sql.TableName;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The data files of a dump that is still being written, handed to the workers as they arrive.
 * Among the files waiting at a moment, {@link LoadPlan}'s order holds: a table's n-th file before
 * any table's (n+1)-th, the bigger table (so far) first, then arrival. The workers wait while
 * nothing is waiting, until {@link #close()} says no more will come or the job stops.
 */
final class ArrivingFiles implements FileQueue {
    private record Waiting(DumpDirectory.DataFile file, int round, long tableBytes, long seq) {
    }

    private static final Comparator<Waiting> ORDER = Comparator.comparingInt(Waiting::round)
            .thenComparing(Comparator.comparingLong(Waiting::tableBytes).reversed())
            .thenComparingLong(Waiting::seq);

    private final LoadJob job;
    private final Consumer<DumpDirectory.DataFile> onFinished;
    private final PriorityQueue<Waiting> waiting = new PriorityQueue<>(ORDER);
    private final Map<TableName, long[]> tables = new HashMap<>();
    private long seq;
    private boolean closed;

    /** @param onFinished called by the worker that finished a file */
    ArrivingFiles(LoadJob job, Consumer<DumpDirectory.DataFile> onFinished) {
        this.job = job;
        this.onFinished = onFinished;
    }

    /** A file that arrived, registered in the checkpoint and its table created. */
    synchronized void add(DumpDirectory.DataFile f) {
        long[] t = tables.computeIfAbsent(f.source(), k -> new long[2]); // files, bytes of the table so far
        t[0]++;
        t[1] += f.size();
        waiting.add(new Waiting(f, (int) t[0], t[1], seq++));
        notifyAll();
    }

    /** No more files will arrive: the workers end once the waiting ones are taken. */
    synchronized void close() {
        closed = true;
        notifyAll();
    }

    @Override
    public synchronized DumpDirectory.DataFile next() throws InterruptedException {
        while (waiting.isEmpty()) {
            if (closed || job.stopping()) {
                return null;
            }
            wait(100); // a stop request does not notify: look again in a while
        }
        return waiting.poll().file();
    }

    /** The files of {@code first}'s table that have arrived and follow it without a gap, within the group size. */
    @Override
    public synchronized List<DumpDirectory.DataFile> claimFollowing(DumpDirectory.DataFile first,
                                                                    Predicate<DumpDirectory.DataFile> fresh) {
        List<DumpDirectory.DataFile> out = new ArrayList<>();
        long next = first.index() + 1;
        long bytes = first.size();
        boolean found = true;
        while (found) {
            found = false;
            for (Iterator<Waiting> it = waiting.iterator(); it.hasNext(); ) {
                DumpDirectory.DataFile f = it.next().file();
                if (f.source().equals(first.source()) && f.index() == next && fresh.test(f)
                        && bytes + f.size() <= BulkLoader.MAX_GROUP_BYTES) {
                    bytes += f.size();
                    it.remove();
                    out.add(f);
                    next++;
                    found = true;
                    break;
                }
            }
        }
        return out;
    }

    @Override
    public void finished(DumpDirectory.DataFile file) {
        onFinished.accept(file);
    }
}
