package io.jdm.common.config;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.List;
import java.util.Map;

/**
 * A copy of a unit config record with one value replaced, the record component named by its task-file
 * key ({@code worker-count} is {@code workerCount}): one way to change any setting, where a wither per
 * component would repeat the constructor once per key.
 */
final class KeyedRecords {
    private KeyedRecords() {
    }

    /**
     * {@code record} with the component of {@code key} set to {@code value}, through the canonical
     * constructor, so the record's own checks apply.
     *
     * @throws IllegalArgumentException when the record has no component for the key
     */
    static <R extends Record, T> R with(R record, TaskKey<T> key, T value) {
        return with(record, key, componentName(key), value);
    }

    /**
     * {@code record} with {@code value} in the component of {@code key}, one of {@code keys} (its section's
     * keys), whose component is named as {@link #componentName} says unless {@code renamed} says otherwise.
     *
     * @throws IllegalArgumentException when the key is not one of {@code keys} or the record has no component for it
     */
    static <R extends Record, T> R with(R record, List<TaskKey<?>> keys,
                                        Map<TaskKey<?>, String> renamed, TaskKey<T> key, T value) {
        String name = renamed.containsKey(key) ? renamed.get(key) : componentName(key);
        if (!keys.contains(key)) {
            throw new IllegalArgumentException(record.getClass().getSimpleName() + " has no component " + name
                    + " for " + key);
        }
        return with(record, key, name, value);
    }

    private static <R extends Record, T> R with(R record, TaskKey<T> key, String name, T value) {
        RecordComponent[] components = record.getClass().getRecordComponents();
        Object[] args = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        boolean found = false;
        try {
            for (int i = 0; i < components.length; i++) {
                types[i] = components[i].getType();
                found |= components[i].getName().equals(name);
                args[i] = components[i].getName().equals(name) ? value : components[i].getAccessor().invoke(record);
            }
            if (!found) {
                throw new IllegalArgumentException(record.getClass().getSimpleName() + " has no component " + name
                        + " for " + key);
            }
            @SuppressWarnings("unchecked")
            Constructor<R> canonical = (Constructor<R>) record.getClass().getDeclaredConstructor(types);
            return canonical.newInstance(args);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot copy " + record.getClass().getSimpleName(), e);
        }
    }

    /** The record component a key names: {@code checkpoint-flush-interval} is {@code checkpointFlushInterval}. */
    static String componentName(TaskKey<?> key) {
        StringBuilder out = new StringBuilder();
        boolean upper = false;
        for (char ch : key.name().toCharArray()) {
            if (ch == '-') {
                upper = true;
            } else {
                out.append(upper ? Character.toUpperCase(ch) : Character.toLowerCase(ch));
                upper = false;
            }
        }
        return out.toString();
    }
}
