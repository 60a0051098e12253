package io.jdm.cli.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.SchemaRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The OpenAPI document jdm serves ({@code dm-openapi.yaml}) against DM's own, dm-master's
 * {@code dm/openapi/spec/dm.yaml} from pingcap/tiflow (Apache License 2.0), kept in this module's test
 * resources: every path, operation and parameter jdm declares is DM's, every schema property has DM's
 * name and type, everything DM requires jdm requires too. With the answers validated against the
 * served document ({@link DmOpenApiSpec}), an answer jdm sends is one DM's clients read.
 */
class OpenApiSpecTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final JsonNode OURS = OpenApi.Spec.DOCUMENT;
    private static final JsonNode DM = dm();

    private static JsonNode dm() {
        try (InputStream in = OpenApiSpecTest.class.getResourceAsStream("/dm-openapi/dm.yaml")) {
            return YAML.readTree(in);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void everyOperationJdmServesIsDmsWithDmsParameters() {
        assertEquals("3.0.0", OURS.path("openapi").asText());
        int operations = 0;
        for (Map.Entry<String, JsonNode> path : OURS.path("paths").properties()) {
            JsonNode dmPath = DM.path("paths").path(path.getKey());
            assertFalse(dmPath.isMissingNode(), "DM has no path " + path.getKey());
            for (Map.Entry<String, JsonNode> op : path.getValue().properties()) {
                String where = op.getKey().toUpperCase() + " " + path.getKey();
                JsonNode dmOp = dmPath.path(op.getKey());
                assertFalse(dmOp.isMissingNode(), "DM has no " + where);
                assertEquals(dmOp.path("operationId").asText(), op.getValue().path("operationId").asText(), where);
                for (JsonNode p : op.getValue().path("parameters")) {
                    JsonNode dmParam = parameter(dmOp, p.path("name").asText());
                    assertNotNull(dmParam, where + ": DM has no parameter " + p.path("name").asText());
                    assertEquals(dmParam.path("in").asText(), p.path("in").asText(), where + " " + p.path("name"));
                    sameShape(p.path("schema"), dmParam.path("schema"), where + " " + p.path("name").asText());
                }
                JsonNode body = op.getValue().path("requestBody").path("content").path("application/json")
                        .path("schema");
                if (!body.isMissingNode()) {
                    sameShape(body, dmOp.path("requestBody").path("content").path("application/json").path("schema"),
                            where + " body");
                }
                operations++;
            }
        }
        assertEquals(9, operations, "the operations OpenApi routes");
    }

    @Test
    void everySchemaPropertyHasDmsNameAndTypeAndWhatDmRequiresIsRequired() {
        int schemas = 0;
        for (Map.Entry<String, JsonNode> s : OURS.path("components").path("schemas").properties()) {
            JsonNode dm = DM.path("components").path("schemas").path(s.getKey());
            assertFalse(dm.isMissingNode(), "DM has no schema " + s.getKey());
            sameShape(s.getValue(), dm, s.getKey());
            schemas++;
        }
        assertTrue(schemas >= 20, "schemas compared: " + schemas);
    }

    @Test
    void theValidatorRefusesWhatDmsSchemasDoNotAllow() throws IOException {
        SchemaRegistry registry = DmOpenApiSpec.registry(OURS);
        ObjectMapper json = new ObjectMapper();
        assertTrue(DmOpenApiSpec.errors(registry, "GetTaskListResponse", json.readTree("{\"total\":0,\"data\":[]}"))
                .isEmpty());
        for (String wrong : new String[] {
            "{\"total\":\"0\",\"data\":[]}", // int64 printed as a string, as jsonpb would
            "{\"total\":0}", // data missing
            "{\"total\":0,\"data\":[],\"count\":0}", // a name DM's schema lacks
            "{\"total\":1,\"data\":[{\"name\":\"t\"}]}", // a task without what DM requires
        }) {
            assertFalse(DmOpenApiSpec.errors(registry, "GetTaskListResponse", json.readTree(wrong)).isEmpty(), wrong);
        }
        String status = "{\"name\":\"t\",\"source_name\":\"s\",\"worker_name\":\"w\",\"stage\":\"Running\","
                + "\"unit\":\"Sync\",\"load_status\":null}";
        assertTrue(DmOpenApiSpec.errors(registry, "SubTaskStatus", json.readTree(status)).isEmpty(),
                "DM's load_status is nullable");
        assertFalse(DmOpenApiSpec.errors(registry, "SubTaskStatus",
                json.readTree(status.replace("null", "\"none\""))).isEmpty());
    }

    private static JsonNode parameter(JsonNode op, String name) {
        for (JsonNode p : op.path("parameters")) {
            if (name.equals(p.path("name").asText())) {
                return p;
            }
        }
        return null;
    }

    /** {@code ours} has DM's type, and where it is an object, only DM's properties with DM's types. */
    private static void sameShape(JsonNode ours, JsonNode dm, String where) {
        ours = resolve(OURS, ours);
        dm = resolve(DM, dm);
        assertEquals(type(dm), type(ours), where + ": DM's type");
        if (ours.has("enum")) {
            Set<String> dmValues = texts(dm.path("enum"));
            for (JsonNode v : ours.path("enum")) {
                assertTrue(dmValues.contains(v.asText()), where + ": DM's values have no " + v);
            }
        }
        if ("array".equals(type(ours))) {
            sameShape(ours.path("items"), dm.path("items"), where + "[]");
        }
        if (!ours.has("properties")) {
            return; // any object, as jdm passes it on
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = ours.path("properties").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> p = it.next();
            JsonNode dmProperty = dm.path("properties").path(p.getKey());
            assertFalse(dmProperty.isMissingNode(), where + ": DM's schema has no " + p.getKey());
            sameShape(p.getValue(), dmProperty, where + "." + p.getKey());
        }
        Set<String> required = texts(ours.path("required"));
        for (JsonNode r : dm.path("required")) {
            assertTrue(required.contains(r.asText()), where + ": DM requires " + r.asText());
        }
    }

    /** A {@code $ref}, or an {@code allOf} of one (how a nullable reference is written), followed. */
    private static JsonNode resolve(JsonNode document, JsonNode schema) {
        while (true) {
            if (schema.has("$ref")) {
                String ref = schema.path("$ref").asText();
                assertTrue(ref.startsWith("#/"), ref);
                schema = document.at(ref.substring(1));
                assertFalse(schema.isMissingNode(), "no " + ref);
            } else if (schema.path("allOf").size() == 1) {
                schema = schema.path("allOf").get(0);
            } else {
                return schema;
            }
        }
    }

    private static String type(JsonNode schema) {
        return schema.has("type") ? schema.path("type").asText() : schema.has("properties") ? "object" : "any";
    }

    private static Set<String> texts(JsonNode list) {
        Set<String> out = new HashSet<>();
        list.forEach(v -> out.add(v.asText()));
        return out;
    }
}
