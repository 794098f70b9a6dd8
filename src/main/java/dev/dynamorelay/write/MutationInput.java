package dev.dynamorelay.write;

import java.util.List;
import java.util.Optional;

/**
 * What one call of a declared mutation gives the write engine: its input objects, and the idempotency key given
 * beside them. The transport builds it once from the field's arguments ({@code InputObject}s in the order given).
 *
 * @param objects the input object, the items of a list input in order, or the field's arguments as one object
 * @param idempotencyKey the argument beside the input that holds the write's idempotency key, as given (empty when
 * left out, null, or the mutation takes its key from an input field)
 */
public record MutationInput(List<InputObject> objects, Optional<String> idempotencyKey) {

	public MutationInput {
		objects = List.copyOf(objects);
	}

	/** The items a create of this input writes: each input object, and each of its children. */
	int items() {
		return this.objects.stream().mapToInt(InputObject::items).sum();
	}

}
