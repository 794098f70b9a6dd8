package dev.dynamorelay.write;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.declaration.DeclaredMutation.InputField;
import dev.dynamorelay.declaration.DeclaredMutation.Kind;
import dev.dynamorelay.declaration.DeclaredMutation;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.Item;

/**
 * The writes of one input object of a mutation, and what tells its answer and its refusals apart
 * ({@link WritePlanner} makes it).
 *
 * @param mutation the mutation
 * @param input the input object
 * @param writes the item's own write first, then its children's and the references' checks
 * @param composed a create's whole item (empty for the other kinds, whose images DynamoDB answers)
 * @param owned the ownership a condition checks (not the key), if any
 * @param expectedVersion the version the client expects, if given
 * @param generatedKey whether a generated time is a part of the item's key (a refusal may be a taken key)
 * @param read the attributes the write read first and depends on, as read (a refusal may be a change since)
 */
record Plan(DeclaredMutation mutation, InputObject input, List<ItemWrite> writes, Map<String, AttributeValue> composed,
		Optional<Ownership> owned, Optional<Long> expectedVersion, boolean generatedKey,
		Map<String, Optional<AttributeValue>> read) {

	Kind kind() {
		return this.mutation.kind();
	}

	Entity entity() {
		return this.mutation.entity();
	}

	ItemWrite main() {
		return this.writes.get(0);
	}

	/**
	 * Whether {@code stored}, found by a refused write whose earlier attempt may have been made, is that
	 * attempt's work: a create's whole item; an update's values, and its expected version raised by one; for
	 * a delete, no item.
	 */
	boolean madeBy(Map<String, AttributeValue> stored) {
		return switch (kind()) {
			case CREATE -> main() instanceof ItemWrite.PutItem put && put.item().equals(stored);
			case UPDATE, REPLACE -> !stored.isEmpty() && main().expressions().madeBy(stored)
					&& this.owned.map((ownership) -> ownership.identity()
						.equals(WritePlanner.text(stored.get(ownership.field().attribute())))).orElse(true)
					&& this.expectedVersion.map((expected) -> Refusals.version(entity(), stored)
						.filter((current) -> current == expected + 1)
						.isPresent()).orElse(true);
			case DELETE -> stored.isEmpty();
		};
	}

	/** The answer, from the image DynamoDB answered (or the composed item of a create). */
	Written answer(Map<String, AttributeValue> image) {
		Map<String, AttributeValue> item = (kind() == Kind.CREATE) ? this.composed : image;
		Optional<String> clientMutationId = this.mutation.input()
			.shape()
			.one(InputField.ClientMutationId.class)
			.map((field) -> this.input.get(field.name()))
			.map(Object::toString);
		return new Written(item.isEmpty() ? Optional.empty() : Optional.of(new Item(entity(), item)), clientMutationId);
	}

}
