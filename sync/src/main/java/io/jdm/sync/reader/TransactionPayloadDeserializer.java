package io.jdm.sync.reader;

import com.github.luben.zstd.ZstdInputStream;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.TransactionPayloadEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;

/**
 * TRANSACTION_PAYLOAD (MySQL 8.0.20+ with binlog_transaction_compression=ON): one event holding a
 * whole transaction's events, zstd-compressed. The library has a deserializer of its own, but it
 * decodes the inner events with a default deserializer: every table decoded, strings as Java
 * strings, a table-id map of its own. This one runs them through the reader's own deserializer
 * (same rows decoding, same table maps), so an inner event reaches the handlers exactly as it would
 * have uncompressed. Inner events carry no checksum and end position 0.
 */
final class TransactionPayloadDeserializer implements EventDataDeserializer<TransactionPayloadEventData> {
    /** Field ids of the payload's header (MySQL's Transaction_payload_event). */
    private static final int END_MARK = 0;
    private static final int PAYLOAD_SIZE = 1;
    private static final int COMPRESSION_TYPE = 2;
    private static final int UNCOMPRESSED_SIZE = 3;
    /** Compression types: MySQL writes ZSTD and knows NONE. */
    static final int ZSTD = 0;
    static final int NONE = 255;

    private final EventDeserializer inner;

    /** @param inner decodes the inner events; shares the outer deserializer's table maps */
    TransactionPayloadDeserializer(EventDeserializer inner) {
        this.inner = inner;
    }

    @Override
    public TransactionPayloadEventData deserialize(ByteArrayInputStream in) throws IOException {
        TransactionPayloadEventData d = new TransactionPayloadEventData();
        d.setCompressionType(ZSTD);
        while (in.available() > 0) {
            int field = in.readPackedInteger();
            if (field == END_MARK) {
                break;
            }
            int length = in.readPackedInteger();
            switch (field) {
                case PAYLOAD_SIZE -> d.setPayloadSize(in.readPackedInteger());
                case COMPRESSION_TYPE -> d.setCompressionType(in.readPackedInteger());
                case UNCOMPRESSED_SIZE -> d.setUncompressedSize((int) Math.min(Integer.MAX_VALUE, in.readPackedLong()));
                default -> in.skip(length);
            }
        }
        d.setPayload(in.read(d.getPayloadSize()));
        d.setUncompressedEvents(events(d));
        return d;
    }

    private ArrayList<Event> events(TransactionPayloadEventData d) throws IOException {
        InputStream raw = new java.io.ByteArrayInputStream(d.getPayload());
        InputStream plain = switch (d.getCompressionType()) {
            case ZSTD -> new ZstdInputStream(raw);
            case NONE -> raw;
            default -> throw new IOException("transaction payload compressed with unknown type "
                    + d.getCompressionType() + " (MySQL writes zstd only)");
        };
        ArrayList<Event> events = new ArrayList<>();
        try (plain) {
            ByteArrayInputStream plainIn = new ByteArrayInputStream(plain);
            for (Event e = inner.nextEvent(plainIn); e != null; e = inner.nextEvent(plainIn)) {
                events.add(e);
            }
        }
        return events;
    }
}
