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
 * nothing is waiting, or, where told to ({@link #holdWhileCreating}), while a target table is
 * being created, until {@link #close()} says no more will come or the job stops.
 */
final class ArrivingFiles implements FileQueue {
    private record Waiting(DumpDirectory.DataFile file, int round, long tableBytes, long seq) {
    }

    private static final Comparator<Waiting> ORDER = Comparator.comparingInt(Waiting::round)
            .thenComparing(Comparator.comparingLong(Waiting::tableBytes).reversed())
            .thenComparingLong(Waiting::seq);

    private final LoadJob job;
    private final Consumer<DumpDirectory.DataFile> onFinished;
    private final java.util.function.IntConsumer onTaken;
    private final PriorityQueue<Waiting> waiting = new PriorityQueue<>(ORDER);
    private final Map<TableName, long[]> tables = new HashMap<>();
    /** Tables the dump has written all files of. */
    private final java.util.Set<TableName> written = new java.util.HashSet<>();
    /** True while the dump waits for the load to finish a file before it announces another. */
    private final java.util.function.BooleanSupplier dumpWaits;
    private final java.util.function.BooleanSupplier holdTables;
    private long seq;
    private boolean closed;
    /** Whether no file goes to a worker while a table is being created ({@link #holdWhileCreating}). */
    private boolean holdWhileCreating;
    /** Target tables being created now. */
    private int creating;

    /**
     * @param onFinished called by the worker that finished a file
     * @param onTaken told how many files a worker took, as it takes them
     * @param dumpWaits true while the dump waits for the load to finish a file
     * @param holdTables true when a table's files are to wait for the table's last one (they load as
     *                   LOAD DATA); asked once a file is there
     */
    ArrivingFiles(LoadJob job, Consumer<DumpDirectory.DataFile> onFinished, java.util.function.IntConsumer onTaken,
                  java.util.function.BooleanSupplier dumpWaits, java.util.function.BooleanSupplier holdTables) {
        this.job = job;
        this.onFinished = onFinished;
        this.onTaken = onTaken;
        this.dumpWaits = dumpWaits;
        this.holdTables = holdTables;
    }

    /** A file that arrived, registered in the checkpoint and its table created. */
    synchronized void add(DumpDirectory.DataFile f) {
        long[] t = tables.computeIfAbsent(f.source(), k -> new long[2]); // files, bytes of the table so far
        t[0]++;
        t[1] += f.size();
        waiting.add(new Waiting(f, (int) t[0], t[1], seq++));
        notifyAll();
    }

    /**
     * From now on no file goes to a worker while a target table is being created: on a target that
     * answers fast, creating the tables beside the loads costs more than it hides ({@code
     * DumpFollower} decides).
     */
    synchronized void holdWhileCreating() {
        holdWhileCreating = true;
    }

    /** A target table's creation began. */
    synchronized void creationBegan() {
        creating++;
    }

    /** A target table's creation ended, done or failed. */
    synchronized void creationEnded() {
        creating--;
        notifyAll();
    }

    /** No more files will arrive: the workers end once the waiting ones are taken. */
    synchronized void close() {
        closed = true;
        notifyAll();
    }

    /** Every data file of {@code table} is written: its files go to the workers as one group. */
    synchronized void tableWritten(TableName table) {
        written.add(table);
        notifyAll();
    }

    /**
     * The next file to load. Where files load as LOAD DATA ({@link LoadJob#bulk()}), a table's files
     * wait until the dump has written all of them, so that one statement fills the empty table:
     * MariaDB then writes no undo per row and sorts the secondary indexes instead of inserting into
     * them row by row (seen in a profile of the target; measured, {@code jdm run} of 8 x 500k
     * sysbench rows, 5 alternating: 9.42 s and 11.6 s of the target's CPU against 10.8 s and 14.1 s
     * when tables went in pieces, file by file 10.6 s and 13.6 s); unless the dump waits for the
     * load to finish a file, when the
     * table with the most files waiting goes as far as it is. Files of a table the dump has finished
     * go at once.
     */
    @Override
    public synchronized DumpDirectory.DataFile next() throws InterruptedException {
        while (true) {
            if (job.stopping() || (closed && waiting.isEmpty())) {
                return null;
            }
            if (waiting.isEmpty() || (holdWhileCreating && creating > 0 && !closed)) {
                wait(100); // a stop request does not notify: look again in a while
                continue;
            }
            // asked only once a file is there: how rows that collide are written is decided at the first one
            boolean hold = !closed && holdTables.getAsBoolean();
            Waiting pick = null;
            for (Waiting w : waiting) {
                if ((!hold || written.contains(w.file().source())) && (pick == null || ORDER.compare(w, pick) < 0)) {
                    pick = w;
                }
            }
            if (pick == null && !waiting.isEmpty() && dumpWaits.getAsBoolean()) {
                pick = mostWaiting();
            }
            if (pick != null) {
                pick = first(pick.file().source());
                waiting.remove(pick);
                onTaken.accept(1);
                return pick.file();
            }
            wait(100); // the dump starting to wait does not notify: look again in a while
        }
    }

    /**
     * The lowest-numbered waiting file of {@code table}: a group starts there, whatever order the
     * dump's threads finished the files in, so that it fills the table from empty.
     */
    private Waiting first(TableName table) {
        Waiting pick = null;
        for (Waiting w : waiting) {
            if (w.file().source().equals(table) && (pick == null || w.file().index() < pick.file().index())) {
                pick = w;
            }
        }
        return pick;
    }

    /** The lowest-numbered waiting file of the table with the most files waiting. */
    private Waiting mostWaiting() {
        Map<TableName, Integer> count = new HashMap<>();
        waiting.forEach(w -> count.merge(w.file().source(), 1, Integer::sum));
        TableName most = null;
        for (Map.Entry<TableName, Integer> e : count.entrySet()) {
            if (most == null || e.getValue() > count.get(most)) {
                most = e.getKey();
            }
        }
        return first(most);
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
        onTaken.accept(out.size());
        return out;
    }

    @Override
    public void finished(DumpDirectory.DataFile file) {
        onFinished.accept(file);
    }
}
