package dev.dynamorelay.declaration;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import graphql.language.Directive;
import graphql.language.ObjectTypeDefinition;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import dev.dynamorelay.model.Entity.AttributeField;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.KeyAttribute;
import dev.dynamorelay.model.KeyTemplate;
import dev.dynamorelay.model.Table.Index;
import dev.dynamorelay.model.Table;
import dev.dynamorelay.schema.Location;
import dev.dynamorelay.schema.Problem.ConflictingDeclarations;
import dev.dynamorelay.schema.Problem.IndexMistake;
import dev.dynamorelay.schema.Problem.KeyMistake;
import dev.dynamorelay.schema.Problem.UnknownName;

import static dev.dynamorelay.declaration.Directives.string;

/**
 * Reads a stored type's {@code @indexKey} directives: the key templates that put its items into an index of its
 * table under attributes that are no fields of its own, and which of its items the index holds.
 */
final class IndexKeyReader {

	private final Reading reading;

	IndexKeyReader(Reading reading) {
		this.reading = reading;
	}

	/** The type's {@code @indexKey} templates, each for a declared index of its table. */
	Map<String, Entity.IndexKey> indexKeys(ObjectTypeDefinition type, Map<String, AttributeField> fields, Table table) {
		Map<String, Entity.IndexKey> keys = new TreeMap<>();
		for (Directive directive : type.getDirectives("indexKey")) {
			String name = string(directive, "index");
			Index index = table.indexes().get(name);
			if (index == null) {
				graphql.language.Node<?> wrong = Directives.argumentValue(directive, "index");
				this.reading.problem(UnknownName.of(Location.of(wrong), "`@indexKey` of `%s` names index `%s`, "
					.formatted(type.getName(), name) + "which table `%s` does not declare.".formatted(table.name()),
						name, table.indexes().keySet()));
				continue;
			}
			if (keys.containsKey(name)) {
				this.reading.problem(directive, ConflictingDeclarations::new,
						"`%s` has two `@indexKey` for index `%s`: keep one."
					.formatted(type.getName(), name));
				continue;
			}
			Optional<KeyTemplate> partition = indexTemplate(type, fields, directive, "partitionKey",
					index.global() ? Optional.of(index.partitionKey()) : Optional.empty());
			Optional<KeyTemplate> sort = indexTemplate(type, fields, directive, "sortKey", index.sortKey());
			if (string(directive, "partitionKey") == null && string(directive, "sortKey") == null) {
				this.reading.problem(directive, IndexMistake::new,
						("`@indexKey` of `%s` for index `%s` gives no template: give `partitionKey` "
						+ "or `sortKey` for the key attributes that are no fields of `%s`.").formatted(type.getName(),
								name, type.getName()));
				continue;
			}
			if (partition.isEmpty() && sort.isEmpty()) {
				continue; // each template's problem is reported already
			}
			List<Entity.Membership> when = new IndexMembershipReader(this.reading).when(type.getName(), fields, directive);
			if (when == null) {
				continue;
			}
			keys.put(name, new Entity.IndexKey(index, partition, sort, when));
		}
		return keys;
	}

	/** One template of an {@code @indexKey}, for a key attribute of the index that holds strings. */
	private Optional<KeyTemplate> indexTemplate(ObjectTypeDefinition type, Map<String, AttributeField> fields,
			Directive directive, String which,
			Optional<KeyAttribute> attribute) {
		String source = string(directive, which);
		if (source == null) {
			return Optional.empty();
		}
		String typeName = type.getName();
		if (attribute.isEmpty()) {
			graphql.language.Node<?> wrong = Directives.argumentValue(directive, which);
			this.reading.problem(wrong, IndexMistake::new,
					"`@indexKey` of `%s` gives a `%s`, but index `%s` has none it could fill%s."
				.formatted(typeName, which, string(directive, "index"),
						which.equals("partitionKey") ? " (a local index's partition key is the table's)" : ""));
			return Optional.empty();
		}
		KeyTemplate template;
		try {
			template = KeyTemplate.parse(source);
		}
		catch (IllegalArgumentException ex) {
			this.reading.problem(Directives.argumentValue(directive, which), KeyMistake::new, ex.getMessage() + ".");
			return Optional.empty();
		}
		Optional<AttributeField> holder = fields
			.values()
			.stream()
			.filter((field) -> field.attribute().equals(attribute.get().name()))
			.findFirst();
		if (holder.isPresent()) {
			graphql.language.Node<?> wrong = Directives.argumentValue(directive, which);
			this.reading.problem(wrong, IndexMistake::new,
					("`@indexKey` of `%s` gives a template for `%s`, which is the field `%s` of "
					+ "`%s`: its value is written as it is; remove the template.").formatted(typeName,
							attribute.get().name(), holder.get().name(), typeName));
			return Optional.empty();
		}
		if (attribute.get().type() != ScalarAttributeType.S && !template.isPlaceholder()) {
			graphql.language.Node<?> wrong = Directives.argumentValue(directive, which);
			this.reading.problem(wrong, IndexMistake::new,
					"`@indexKey` of `%s`: index key `%s` is %s, which a composed template cannot fill."
				.formatted(typeName, attribute.get().name(), attribute.get().type()));
			return Optional.empty();
		}
		for (String placeholder : template.placeholders()) {
			AttributeField field = fields.get(placeholder);
			if (field == null || field.type().keyType().isEmpty()) {
				graphql.language.Node<?> wrong = Directives.argumentValue(directive, which);
				String sentence = "`@indexKey` template `%s` of `%s` names ".formatted(template, typeName)
						+ "`{%s}`, which is no %sfield of `%s`.".formatted(placeholder,
								(field == null) ? "" : "string, number or bytes ", typeName);
				this.reading.problem((field == null)
						? UnknownName.of(Location.of(wrong), sentence, placeholder, fields.keySet())
						: new KeyMistake(Location.of(wrong), sentence));
				return Optional.empty();
			}
		}
		return Optional.of(template);
	}

}
