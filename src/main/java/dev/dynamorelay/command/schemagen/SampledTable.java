package dev.dynamorelay.command.schemagen;

import java.util.List;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * One table as the generator sees it: its description and the items of a bounded Scan.
 *
 * @param name the table's name without the configured prefix, as declarations name it
 * @param description what DescribeTable says: key schema, attribute definitions, indexes
 * @param items the sampled items, in the Scan's order
 */
record SampledTable(String name, TableDescription description, List<Map<String, AttributeValue>> items) {
}
