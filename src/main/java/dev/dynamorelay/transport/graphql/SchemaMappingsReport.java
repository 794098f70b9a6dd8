package dev.dynamorelay.transport.graphql;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.graphql.autoconfigure.GraphQlSourceBuilderCustomizer;
import org.springframework.graphql.execution.GraphQlSource;
import org.springframework.graphql.execution.SchemaReport;
import org.springframework.stereotype.Component;

/**
 * Spring GraphQL's inspection of the schema's mappings, told only when it finds something to fix: fields that no data
 * fetcher resolves (a field of one's own schema left without a controller) and nullness mismatches, each once, in one
 * WARN line, in place of Spring Boot's own report (a builder takes one): that printed at every start five empty lists and a
 * "Skipped types" list with types repeated, which says nothing about a declared schema: its types are resolved by
 * the declarations' own fetchers, not by annotated controllers the inspection follows.
 */
@Component
class SchemaMappingsReport implements GraphQlSourceBuilderCustomizer {

	private static final Logger logger = LoggerFactory.getLogger(SchemaMappingsReport.class);

	@Override
	public void customize(GraphQlSource.SchemaResourceBuilder builder) {
		builder.inspectSchemaMappings(SchemaMappingsReport::report);
	}

	static void report(SchemaReport report) {
		List<String> problems = problems(report);
		if (!problems.isEmpty()) {
			logger.warn("The GraphQL schema has {}: {}", (problems.size() == 1) ? "a field to fix" : "fields to fix",
					String.join("; ", problems));
		}
	}

	/** What the report finds to fix, each thing once. */
	static List<String> problems(SchemaReport report) {
		List<String> problems = new ArrayList<>();
		Set<String> unmapped = new LinkedHashSet<>();
		report.unmappedFields().forEach((field) -> unmapped.add(field.toString()));
		if (!unmapped.isEmpty()) {
			problems.add("no data fetcher resolves " + String.join(", ", unmapped)
					+ " (declare it, or write a controller for it)");
		}
		report.fieldNullnessErrors().forEach((field, error) -> problems.add(field
				+ " is non-null in the schema but its fetcher may return null"));
		return problems;
	}

}
