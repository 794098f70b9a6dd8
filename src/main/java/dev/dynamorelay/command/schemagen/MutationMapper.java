package dev.dynamorelay.command.schemagen;

import java.util.ArrayList;
import java.util.List;

/**
 * Declares the writes of a generated type: {@code createX}, {@code updateX} and {@code deleteX} on
 * {@code Mutation} ({@code @create}, {@code @update}, {@code @delete}), and the input types of the first two.
 * A create takes every field it can write, the key fields required; an update names its item by its
 * {@code id} and takes every other field, each optional; a delete takes the {@code id}.
 */
final class MutationMapper {

	private final UniqueNames typeNames;

	/**
	 * @param typeNames the schema's type names so far, shared by every table: the input types' names are
	 * claimed there
	 */
	MutationMapper(UniqueNames typeNames) {
		this.typeNames = typeNames;
	}

	/** Adds the writes of {@code type} to {@code inputs} and {@code mutationFields}. */
	void map(DeclaredType type, List<DeclaredInput> inputs, List<DeclaredField> mutationFields) {
		String name = type.name();
		List<DeclaredField> created = new ArrayList<>();
		List<DeclaredField> updated = new ArrayList<>();
		List<String> leftOut = new ArrayList<>();
		for (DeclaredField field : type.fields()) {
			if (field.name().equals("id")) {
				continue;
			}
			if (!isWritable(field.type())) {
				leftOut.add("`" + field.name() + "`");
				continue;
			}
			if (type.keyFields().contains(field.name())) {
				created.add(DeclaredField.of(field.name(), field.type(), field.description(), List.of()));
			}
			else {
				DeclaredField optional = DeclaredField.of(field.name(), nullable(field.type()), field.description(),
						List.of());
				created.add(optional);
				updated.add(optional);
			}
		}
		String unwritten = leftOut.isEmpty() ? "" : " " + String.join(", ", leftOut) + ((leftOut.size() > 1)
				? " are left out: a write would not store them" : " is left out: a write would not store it")
				+ " as sampled (a set is written as a list, JSON only as a string, number or boolean).";
		String createInput = this.typeNames.claim("Create" + name + "Input");
		inputs.add(new DeclaredInput(createInput, "A new `" + name + "`: its key fields, and any of its other fields."
				+ unwritten, List.copyOf(created)));
		mutationFields.add(new DeclaredField("create" + name,
				"Creates one `" + name + "` (PutItem); CONFLICT when one with the same key exists.",
				List.of(DeclaredArgument.of("input", createInput + "!")), name + "!",
				List.of(DeclaredDirective.of("create"))));
		if (!updated.isEmpty()) {
			String updateInput = this.typeNames.claim("Update" + name + "Input");
			List<DeclaredField> fields = new ArrayList<>();
			fields.add(DeclaredField.of("id", "ID!", "The `" + name + "` to update.", List.of()));
			fields.addAll(updated);
			inputs.add(new DeclaredInput(updateInput, "The fields to change of the `" + name + "` with this id: those "
					+ "left out stay as they are, and one given null loses its attribute. Its key cannot change." + unwritten,
					List.copyOf(fields)));
			mutationFields.add(new DeclaredField("update" + name,
					"Updates the fields given of the `" + name + "` with this id (UpdateItem); NOT_FOUND when there is "
							+ "none.",
					List.of(DeclaredArgument.of("input", updateInput + "!")), name + "!",
					List.of(DeclaredDirective.of("update"))));
		}
		mutationFields.add(new DeclaredField("delete" + name,
				"Deletes the `" + name + "` with this id (DeleteItem); answers the id, or null when there was none.",
				List.of(DeclaredArgument.of("id", "ID!")), "ID", List.of(DeclaredDirective.of("delete").with("type", name))));
	}

	/**
	 * Whether a mutation stores a value of this field type as the generator sampled it. The server's reader
	 * takes every field in an input of its own type, but a write stores a list as a list (L), not as the set
	 * (SS, NS, BS) the field was sampled as, and {@code JSON} only as a string, number or boolean, not as the
	 * map, list or values of several types it was sampled as: such a field would change what the table holds,
	 * so the inputs leave it out.
	 */
	static boolean isWritable(String type) {
		return !type.startsWith("[") && !type.startsWith("JSON");
	}

	private static String nullable(String type) {
		return type.endsWith("!") ? type.substring(0, type.length() - 1) : type;
	}

}
