/**
 * The binlog reader: one BinaryLogClient, one small handler per event type in an EnumMap, a
 * deserializer that decodes only selected tables, and one converter from binlog values to the
 * encoder's canonical values. Publishes into a {@link io.jdm.sync.reader.ChangeSink}.
 */
package io.jdm.sync.reader;
