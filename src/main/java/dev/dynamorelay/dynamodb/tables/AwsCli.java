package dev.dynamorelay.dynamodb.tables;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import tools.jackson.databind.json.JsonMapper;

import dev.dynamorelay.model.KeyAttribute;
import dev.dynamorelay.model.Table.Index;
import dev.dynamorelay.model.Table;

/**
 * The {@code aws dynamodb} commands that make a table what the declarations say, as {@link TableSetup} would
 * make it with {@code dynamo-relay.tables.create=true}: what a start that only checks the tables tells its user
 * to run, so that nothing changes a table unless someone chose to.
 *
 * @param endpoint the endpoint as {@code --endpoint-url} names it; empty for AWS's own
 */
record AwsCli(Optional<String> endpoint) {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	/** What a shell takes as one word without quotes. */
	private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_.,=:/@%+-]+");

	/** The command that creates {@code table}, its indexes and, when {@code live}, its stream. */
	String createTable(Table table, boolean live) {
		Map<String, KeyAttribute> attributes = new LinkedHashMap<>();
		table.primaryKey().forEach((key) -> attributes.put(key.name(), key));
		List<Map<String, Object>> globals = new ArrayList<>();
		List<Map<String, Object>> locals = new ArrayList<>();
		// By name: the same command every time, whatever order the declarations' map keeps.
		for (Index index : table.indexes().values().stream().sorted(Comparator.comparing(Index::name)).toList()) {
			attributes.putIfAbsent(index.partitionKey().name(), index.partitionKey());
			index.sortKey().ifPresent((sort) -> attributes.putIfAbsent(sort.name(), sort));
			(index.global() ? globals : locals).add(index(index));
		}
		List<String> words = new ArrayList<>(List.of("aws", "dynamodb", "create-table", "--table-name", table.physicalName(),
				"--attribute-definitions"));
		attributes.values().forEach((key) -> words.add("AttributeName=" + key.name() + ",AttributeType=" + key.type()));
		words.add("--key-schema");
		words.addAll(keySchema(table.partitionKey(), table.sortKey()));
		words.addAll(List.of("--billing-mode", "PAY_PER_REQUEST"));
		if (!globals.isEmpty()) {
			words.addAll(List.of("--global-secondary-indexes", JSON.writeValueAsString(globals)));
		}
		if (!locals.isEmpty()) {
			words.addAll(List.of("--local-secondary-indexes", JSON.writeValueAsString(locals)));
		}
		if (live) {
			words.addAll(List.of("--stream-specification", "StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES"));
		}
		return command(words);
	}

	/**
	 * The command that adds global index {@code index} to the table {@code described} says, with the table's own
	 * provisioned throughput when it is not on demand (DynamoDB then requires one for the index).
	 */
	String addIndex(Index index, TableDescription described) {
		List<String> words = new ArrayList<>(List.of("aws", "dynamodb", "update-table", "--table-name", described.tableName(),
				"--attribute-definitions"));
		words.add("AttributeName=" + index.partitionKey().name() + ",AttributeType=" + index.partitionKey().type());
		index.sortKey().ifPresent((sort) -> words.add("AttributeName=" + sort.name() + ",AttributeType=" + sort.type()));
		Map<String, Object> create = index(index);
		boolean onDemand = described.billingModeSummary() != null
				&& described.billingModeSummary().billingMode() == BillingMode.PAY_PER_REQUEST;
		if (!onDemand && described.provisionedThroughput() != null
				&& described.provisionedThroughput().readCapacityUnits() != null
				&& described.provisionedThroughput().readCapacityUnits() > 0) {
			create.put("ProvisionedThroughput", object("ReadCapacityUnits", described.provisionedThroughput().readCapacityUnits(),
					"WriteCapacityUnits", described.provisionedThroughput().writeCapacityUnits()));
		}
		words.addAll(List.of("--global-secondary-index-updates", JSON.writeValueAsString(List.of(object("Create", create)))));
		return command(words);
	}

	/** The command that enables a stream of new and old images on {@code table}. */
	String enableStream(String table) {
		return command(List.of("aws", "dynamodb", "update-table", "--table-name", table, "--stream-specification",
				"StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES"));
	}

	private static Map<String, Object> index(Index index) {
		Map<String, Object> json = new LinkedHashMap<>();
		json.put("IndexName", index.name());
		List<Map<String, Object>> keys = new ArrayList<>();
		keys.add(object("AttributeName", index.partitionKey().name(), "KeyType", "HASH"));
		index.sortKey().ifPresent((sort) -> keys.add(object("AttributeName", sort.name(), "KeyType", "RANGE")));
		json.put("KeySchema", keys);
		json.put("Projection", object("ProjectionType", "ALL"));
		return json;
	}

	/** A JSON object of names and values, in the order given (the CLI's documentation's order). */
	private static Map<String, Object> object(Object... namesAndValues) {
		Map<String, Object> json = new LinkedHashMap<>();
		for (int i = 0; i < namesAndValues.length; i += 2) {
			json.put((String) namesAndValues[i], namesAndValues[i + 1]);
		}
		return json;
	}

	private static List<String> keySchema(KeyAttribute partition, Optional<KeyAttribute> sort) {
		List<String> keys = new ArrayList<>();
		keys.add("AttributeName=" + partition.name() + ",KeyType=HASH");
		sort.ifPresent((key) -> keys.add("AttributeName=" + key.name() + ",KeyType=RANGE"));
		return keys;
	}

	/** The words as one line a POSIX shell runs as they are, with {@code --endpoint-url} where there is one. */
	private String command(List<String> words) {
		List<String> all = new ArrayList<>(words);
		this.endpoint.ifPresent((url) -> all.addAll(List.of("--endpoint-url", url)));
		return String.join(" ", all.stream().map(AwsCli::quoted).toList());
	}

	private static String quoted(String word) {
		return PLAIN.matcher(word).matches() ? word : "'" + word.replace("'", "'\\''") + "'";
	}

}
