package dev.dynamorelay.declaration;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import graphql.schema.FieldCoordinates;

import dev.dynamorelay.model.Entity.AttributeField;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.Filter;
import dev.dynamorelay.model.ValueType;

/**
 * A declared mutation field: which item it writes and how, where its values come from, what must hold
 * for it to write, and what it answers.
 *
 * @param coordinates the field, e.g. {@code Mutation.createPurchase}
 * @param kind what the write does
 * @param entity the type of the item written
 * @param input where the item's values come from
 * @param conditions the field's own conditions on the stored item (constant values)
 * @param answer what the field answers
 */
public record DeclaredMutation(FieldCoordinates coordinates, Kind kind, Entity entity, Input input,
		List<Condition> conditions, Answer answer) {

	public DeclaredMutation {
		conditions = List.copyOf(conditions);
	}

	/** DynamoDB's limit on the items of one transaction. */
	public static final int MAX_TRANSACTION_ITEMS = 100;

	/** The field as {@code Type.field}. */
	public String name() {
		return this.coordinates.toString();
	}

	/**
	 * How many items a call with {@code arguments} (coerced, as its data fetcher sees them) asks to write: each
	 * input object, and each child of its {@code @children} lists. What the write itself refuses (an empty or
	 * too long list) counts as it is given; the write decides.
	 */
	public int itemsWritten(Map<String, Object> arguments) {
		if (this.input.argument().isEmpty()) {
			return 1;
		}
		Object value = arguments.get(this.input.argument().get());
		if (value instanceof List<?> items) {
			int written = 0;
			for (Object item : items) {
				written += written(item, this.input.shape());
			}
			return written;
		}
		return written(value, this.input.shape());
	}

	private static int written(Object input, Shape shape) {
		if (!(input instanceof Map<?, ?> values)) {
			return 1;
		}
		int written = 1;
		for (InputField.Children children : shape.all(InputField.Children.class)) {
			if (values.get(children.name()) instanceof List<?> items) {
				for (Object item : items) {
					written += written(item, children.shape());
				}
			}
		}
		return written;
	}

	/** What a mutation does to its item. */
	public enum Kind {

		/** PutItem that never overwrites. */
		CREATE,

		/** UpdateItem of the fields given, of an item that exists. */
		UPDATE,

		/** A whole item written over the one of its key, if any. */
		REPLACE,

		/** DeleteItem. */
		DELETE;

		/** The directive that declares it. */
		public String directive() {
			return name().toLowerCase(java.util.Locale.ROOT);
		}

	}

	/**
	 * Where a mutation's values come from: one argument holding an input object (or a list of them), or the
	 * field's arguments themselves.
	 *
	 * @param argument the argument holding the input object(s); empty when the arguments are the input
	 * @param many whether that argument is a list, whose items are written in one transaction
	 * @param shape the input object's fields (or the field's arguments)
	 * @param idempotencyArgument an argument beside the input that holds the write's idempotency key
	 */
	public record Input(Optional<String> argument, boolean many, Shape shape, Optional<String> idempotencyArgument) {
	}

	/**
	 * The fields of an input object (or the arguments of a field), each with its role in the write.
	 *
	 * @param typeName the input object type, or the field's coordinates for its arguments
	 * @param fields by name, in declaration order
	 */
	public record Shape(String typeName, Map<String, InputField> fields) {

		public Shape {
			fields = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(fields));
		}

		/** The fields of one role. */
		public <T extends InputField> List<T> all(Class<T> role) {
			return this.fields.values().stream().filter(role::isInstance).map(role::cast).toList();
		}

		/** The one field of a role, if there is one. */
		public <T extends InputField> Optional<T> one(Class<T> role) {
			return all(role).stream().findFirst();
		}

	}

	/** An input field (or argument) and what it does in the write. */
	public sealed interface InputField {

		/** The input field's (or argument's) name. */
		String name();

		/**
		 * A value of a field of the written type.
		 *
		 * @param name the input field
		 * @param target the type's field it writes
		 * @param generated what the server fills in when a create leaves it out
		 * @param constraint bounds on the value
		 * @param references the type whose item the value names and that must exist
		 */
		record Value(String name, AttributeField target, Optional<Generated> generated, Constraint constraint,
				Optional<Entity> references) implements InputField {
		}

		/** The node id of the item an update or delete writes. */
		record Id(String name) implements InputField {
		}

		/** The version the stored item must have ({@code @expectedVersion}). */
		record ExpectedVersion(String name) implements InputField {
		}

		/**
		 * A condition on the stored item with the client's value ({@code @condition}).
		 *
		 * @param name the input field
		 * @param condition the comparison; its value is the input's
		 */
		record Conditional(String name, Condition condition) implements InputField {
		}

		/** DynamoDB's {@code ClientRequestToken} ({@code @idempotencyKey}). */
		record IdempotencyKey(String name) implements InputField {
		}

		/** Relay's {@code clientMutationId}, answered as given. */
		record ClientMutationId(String name) implements InputField {
		}

		/**
		 * Items of another type created with the parent's ({@code @children}).
		 *
		 * @param name the input field, a list of input objects
		 * @param entity the children's type
		 * @param shape the children's input fields
		 */
		record Children(String name, Entity entity, Shape shape) implements InputField {
		}

	}

	/** What the server fills in when a create's input leaves a field out. */
	public enum Generated {

		/** The current time. */
		NOW,

		/** A random UUID. */
		UUID

	}

	/**
	 * Bounds on an input value, checked before anything is written.
	 *
	 * @param notBlank a string with more than white space
	 * @param maxBytes the most UTF-8 bytes of a string
	 * @param min the least number
	 * @param max the greatest number
	 */
	public record Constraint(boolean notBlank, Optional<Integer> maxBytes, Optional<Double> min, Optional<Double> max) {

		/** No bounds. */
		public static final Constraint NONE = new Constraint(false, Optional.empty(), Optional.empty(), Optional.empty());

	}

	/**
	 * A condition on the stored item.
	 *
	 * @param attribute the attribute compared
	 * @param op the comparison
	 * @param type how the compared value is written
	 * @param value the constant value (a rule of the field); empty when the client gives it
	 */
	public record Condition(String attribute, Filter.Op op, ValueType type, Optional<Object> value) {
	}

	/** What a mutation answers. */
	public sealed interface Answer {

		/** The written item (a list of them, for a list input), or the deleted item's id. */
		record Node() implements Answer {
		}

		/** The item's node id ({@code ID}), null when a delete found none. */
		record Id() implements Answer {
		}

		/**
		 * A payload object: any of the item, its edges, the deleted id and the client's mutation id.
		 *
		 * @param typeName the payload type
		 * @param node the field that answers the item
		 * @param edges the fields that answer the item's edge in a connection
		 * @param deletedId the field that answers the deleted item's id
		 * @param clientMutationId the field that answers the input's {@code clientMutationId}
		 */
		record Payload(String typeName, Optional<String> node, List<EdgeField> edges, Optional<String> deletedId,
				Optional<String> clientMutationId) implements Answer {

			public Payload {
				edges = List.copyOf(edges);
			}

		}

	}

	/**
	 * A payload field answering the written item's edge in a connection ({@code @edge}).
	 *
	 * @param name the payload field
	 * @param connection the connection; the field's arguments are that connection's
	 */
	public record EdgeField(String name, DeclaredConnection connection) {
	}

}
