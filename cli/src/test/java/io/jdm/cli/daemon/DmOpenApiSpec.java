package io.jdm.cli.daemon;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;
import java.util.List;
import java.util.Map;

/**
 * Checks an answer of jdm's DM API against the OpenAPI document jdm serves at {@code /api/v1/dm.json}
 * ({@link OpenApi.Spec}), with a JSON Schema validator in OpenAPI 3.0's dialect (nullable, no
 * property a schema does not list, every required one, DM's types, nested objects too).
 * {@code OpenApiSpecTest} holds that document against DM's own spec.
 */
public final class DmOpenApiSpec {
    /** The name the document goes by inside the validator; never fetched. */
    static final String IRI = "https://jdm.invalid/api/v1/dm.json";
    private static final SchemaRegistry REGISTRY = registry(OpenApi.Spec.DOCUMENT);

    private DmOpenApiSpec() {
    }

    static SchemaRegistry registry(JsonNode document) {
        String text;
        try {
            text = new ObjectMapper().writeValueAsString(document);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        return SchemaRegistry.withDefaultDialect(Dialects.getOpenApi30(), b -> b.schemas(Map.of(IRI, text)));
    }

    /** What the validator finds wrong in {@code node} as a {@code schema} of the served document. */
    static List<Error> errors(SchemaRegistry registry, String schema, JsonNode node) {
        Schema s = registry.getSchema(SchemaLocation.of(IRI + "#/components/schemas/" + schema));
        return s.validate(node);
    }

    /** Fails unless {@code node} is a {@code schema} of the served document, everything under it included. */
    public static void assertShape(String schema, JsonNode node) {
        List<Error> errors = errors(REGISTRY, schema, node);
        assertTrue(errors.isEmpty(), "not DM's " + schema + ": " + errors + " in " + node);
    }
}
