package dev.dynamorelay.sample;

import java.util.List;

import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.schema.SchemaProperties;

/**
 * The DynamoDB calls of the sample's own Java code, which the declarations cannot show: the IAM policy
 * ({@code generate-iam-policy}) grants them only while that code runs, that is while the sample schema is
 * served. Kept here, beside {@link SampleData}: a new call there belongs here too
 * ({@code SampleCallsIT} records the calls the server makes and fails when the two part).
 */
public final class SampleAccess {

	private SampleAccess() {
	}

	/**
	 * Whether the sample's code runs for these schema locations: as {@code @ConditionalOnProperty} on
	 * {@link SampleConfiguration} decides it (the property missing or the sample's).
	 */
	public static boolean served(String locations) {
		return locations == null || locations.equalsIgnoreCase(SchemaProperties.SAMPLE);
	}

	/**
	 * The calls of loading the sample data into empty tables at start ({@link SampleData}): a Scan of one item
	 * to see whether a table is empty, then BatchWriteItem.
	 */
	public static List<Grant> sampleData(Declarations declarations) {
		return List.of(new Grant("SampleDataLoad", List.of("dynamodb:BatchWriteItem", "dynamodb:Scan"),
				List.of(declarations.entity("Movie").table().physicalName(),
						declarations.entity("Purchase").table().physicalName(),
						declarations.entity("User").table().physicalName())));
	}

	/**
	 * Actions on tables, by their names as DynamoDB knows them.
	 *
	 * @param sid the statement's id
	 * @param actions the IAM actions
	 * @param tables the tables' physical names
	 */
	public record Grant(String sid, List<String> actions, List<String> tables) {
	}

}
