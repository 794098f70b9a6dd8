package dev.dynamorelay.declaration;

import java.util.ArrayList;
import java.util.List;

import graphql.language.Directive;
import graphql.language.FieldDefinition;
import graphql.language.ObjectTypeDefinition;
import graphql.schema.idl.TypeDefinitionRegistry;

import dev.dynamorelay.model.Entity;
import dev.dynamorelay.schema.DeclarationException;
import dev.dynamorelay.schema.Problem.ConflictingDeclarations;
import dev.dynamorelay.schema.Problem.MisplacedDirective;

import static dev.dynamorelay.declaration.Directives.directive;
import static dev.dynamorelay.declaration.Directives.isRootType;

/**
 * Reads the declarations out of a parsed schema and checks them, collecting every problem (with its
 * file and line) before failing, so that one start reports all of them: the types and their tables first
 * ({@link TableReader}), then every field that reads them ({@link ConnectionReader}, {@link LookupReader}).
 */
public final class DeclarationReader {

	private final Reading reading;

	private final ConnectionReader connections;

	private final LookupReader lookups;

	private final MutationReader mutations;

	private final LiveReader live;

	private DeclarationReader(TypeDefinitionRegistry registry, String prefix) {
		this.reading = new Reading(registry, prefix);
		KeyValueReader keys = new KeyValueReader(this.reading);
		this.connections = new ConnectionReader(this.reading, keys, new ArgumentReader(this.reading));
		this.lookups = new LookupReader(this.reading, keys);
		this.mutations = new MutationReader(this.reading);
		this.live = new LiveReader(this.reading);
	}

	/**
	 * The declarations of {@code registry} (the merged schema files, with Connection types generated),
	 * with table names under {@code prefix}.
	 * @throws DeclarationException listing every problem found
	 */
	public static Declarations read(TypeDefinitionRegistry registry, String prefix) {
		DeclarationReader reader = new DeclarationReader(registry, prefix);
		new TableReader(reader.reading).read();
		reader.readFields();
		Reading read = reader.reading;
		if (!read.problems.isEmpty()) {
			throw new DeclarationException("The schema's declarations cannot be served", read.problems);
		}
		return new Declarations(read.tables, read.entities, read.connections, read.lookups, read.abstractTypes,
				reader.mutations.mutations(), reader.live.subscriptions());
	}

	private void readFields() {
		List<Runnable> deferred = new ArrayList<>();
		for (ObjectTypeDefinition type : this.reading.objectTypes()) {
			if (this.reading.unreadable.contains(type.getName())) {
				continue;
			}
			Entity parent = this.reading.entities.get(type.getName());
			for (FieldDefinition field : this.reading.fields(type)) {
				Directive query = directive(field, "query");
				Directive scan = directive(field, "scan");
				Directive lookup = directive(field, "lookup");
				int count = ((query != null) ? 1 : 0) + ((scan != null) ? 1 : 0) + ((lookup != null) ? 1 : 0);
				if (count > 1) {
					this.reading.problem(field, ConflictingDeclarations::new,
							"`%s.%s` has more than one of `@query`, `@scan` and `@lookup`: keep one."
						.formatted(type.getName(), field.getName()));
					continue;
				}
				if (parent == null && count > 0 && !isRootType(type)) {
					this.reading.problem(field, MisplacedDirective::new,
							("`%s.%s` is declared on `%s`, which has no `@table`: connections and lookups belong "
							+ "to `Query` or to a type stored in a table.").formatted(type.getName(), field.getName(),
									type.getName()));
					continue;
				}
				if (query != null) {
					this.connections.query(type, parent, field, query);
				}
				else if (scan != null) {
					this.connections.scan(type, parent, field, scan);
				}
				else if (lookup != null) {
					this.lookups.read(type, parent, field, lookup);
				}
				else if (field.hasDirective("live")) {
					// After every connection: it keeps one live.
					deferred.add(() -> this.live.read(type, field));
				}
				else if (MutationReader.isMutation(field)) {
					// After every connection: a mutation's payload may answer an edge of one.
					deferred.add(() -> this.mutations.read(type, field));
				}
				else {
					field.getInputValueDefinitions().forEach((argument) -> this.reading.noConnectionArgument(type, field, argument));
				}
			}
		}
		deferred.forEach(Runnable::run);
	}

}
