package io.jdm.cli;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * dmctl start-task's {@code --start-time}: {@code 2021-10-21 00:01:00} or {@code 2021-10-21T00:01:00}
 * in this host's time zone, or with an offset ({@code …+08:00}, {@code …Z}).
 */
final class StartTimeConverter implements ITypeConverter<Instant> {
    @Override
    public Instant convert(String value) {
        String v = value.strip().replace(' ', 'T');
        try {
            return OffsetDateTime.parse(v).toInstant();
        } catch (DateTimeParseException withoutOffset) {
            try {
                return LocalDateTime.parse(v).atZone(ZoneId.systemDefault()).toInstant();
            } catch (DateTimeParseException e) {
                throw new TypeConversionException("must be a time such as '2021-10-21 00:01:00' or "
                        + "2021-10-21T00:01:00 (this host's time zone unless an offset follows), got '" + value + "'");
            }
        }
    }
}
