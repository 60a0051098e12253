package io.jdm.common.util;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Threads named {@code <task>-<unit>-<role>-<n>}, so a thread dump reads like the pipeline. */
public final class NamedThreadFactory implements ThreadFactory {
    private final String prefix;
    private final boolean daemon;
    private final AtomicInteger next = new AtomicInteger();

    public NamedThreadFactory(String task, String unit, String role, boolean daemon) {
        this.prefix = task + "-" + unit + "-" + role + "-";
        this.daemon = daemon;
    }

    public NamedThreadFactory(String task, String unit, String role) {
        this(task, unit, role, false);
    }

    @Override
    public Thread newThread(Runnable r) {
        Thread t = new Thread(r, prefix + next.getAndIncrement());
        t.setDaemon(daemon);
        return t;
    }
}
