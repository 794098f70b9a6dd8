package dev.dynamorelay.transport.graphql;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import graphql.schema.DataFetchingEnvironment;
import graphql.schema.FieldCoordinates;
import graphql.schema.GraphQLCodeRegistry;
import graphql.schema.GraphQLFieldDefinition;
import graphql.schema.GraphQLObjectType;
import graphql.schema.GraphQLSchemaElement;
import graphql.schema.GraphQLTypeVisitorStub;
import graphql.schema.LightDataFetcher;
import graphql.schema.PropertyDataFetcher;
import graphql.util.TraversalControl;
import graphql.util.TraverserContext;
import org.springframework.boot.graphql.autoconfigure.GraphQlSourceBuilderCustomizer;
import org.springframework.graphql.execution.GraphQlSource;
import org.springframework.stereotype.Component;

/**
 * Gives every object field that has no data fetcher of its own (edges, cursors, page info, a node's
 * fields) a {@link Reader} in place of graphql-java's default {@link PropertyDataFetcher}.
 *
 * <p>A 50-edge page resolves about 400 such fields. The default fetcher builds a cache key string and
 * looks it up in a shared map on every call (about 3% of a page's server CPU, measured with
 * async-profiler); a reader binds the source class's accessor once and calls it directly. Sources it
 * cannot bind to a public no-argument method of the field's name (or a {@code Map}) are read by
 * {@link PropertyDataFetcher} as before, so what a field resolves to does not change.
 */
@Component
class FieldReaders extends GraphQLTypeVisitorStub implements GraphQlSourceBuilderCustomizer {

	@Override
	public void customize(GraphQlSource.SchemaResourceBuilder builder) {
		builder.typeVisitors(List.of(this));
	}

	@Override
	public TraversalControl visitGraphQLFieldDefinition(GraphQLFieldDefinition field,
			TraverserContext<GraphQLSchemaElement> context) {
		if (context.getParentNode() instanceof GraphQLObjectType type && !type.getName().startsWith("__")) {
			GraphQLCodeRegistry.Builder registry = context.getVarFromParents(GraphQLCodeRegistry.Builder.class);
			FieldCoordinates coordinates = FieldCoordinates.coordinates(type, field);
			if (!registry.hasDataFetcher(coordinates)) {
				registry.dataFetcher(coordinates, new Reader(field.getName()));
			}
		}
		return TraversalControl.CONTINUE;
	}

	/**
	 * Reads one field by name from whatever source object reaches it, bound to the last source class
	 * seen (a field's sources are of one class in practice).
	 */
	static final class Reader implements LightDataFetcher<Object> {

		private final String name;

		private volatile Binding binding;

		Reader(String name) {
			this.name = name;
		}

		@Override
		public Object get(GraphQLFieldDefinition field, Object source, Supplier<DataFetchingEnvironment> environment)
				throws Exception {
			if (source == null) {
				return null;
			}
			if (source instanceof Map<?, ?> map) {
				return map.get(this.name);
			}
			Binding binding = this.binding;
			if (binding == null || binding.type != source.getClass()) {
				binding = bind(source.getClass());
				this.binding = binding;
			}
			return binding.read(field, source, environment);
		}

		@Override
		public Object get(DataFetchingEnvironment environment) throws Exception {
			return get(environment.getFieldDefinition(), environment.getSource(), () -> environment);
		}

		private Binding bind(Class<?> type) {
			Method method = accessor(type);
			if (method != null) {
				try {
					MethodHandle handle = MethodHandles.publicLookup()
						.unreflect(method)
						.asType(MethodType.methodType(Object.class, Object.class));
					return new Binding(type, handle, null);
				}
				catch (IllegalAccessException | RuntimeException ex) {
					// Not accessible or not adaptable after all: PropertyDataFetcher below.
				}
			}
			return new Binding(type, null, PropertyDataFetcher.fetching(this.name));
		}

		/**
		 * The public instance {@code name()} of a public class, as PropertyDataFetcher would find it first;
		 * {@code Object}'s own methods are left to PropertyDataFetcher.
		 */
		private Method accessor(Class<?> type) {
			if (!Modifier.isPublic(type.getModifiers())) {
				return null;
			}
			try {
				Method method = type.getMethod(this.name);
				boolean readable = method.getReturnType() != void.class && !Modifier.isStatic(method.getModifiers())
						&& method.getDeclaringClass() != Object.class
						&& Modifier.isPublic(method.getDeclaringClass().getModifiers());
				return readable ? method : null;
			}
			catch (NoSuchMethodException ex) {
				return null;
			}
		}

	}

	/** How one source class is read: by an accessor, or by graphql-java's default fetcher. */
	private record Binding(Class<?> type, MethodHandle accessor, PropertyDataFetcher<Object> fallback) {

		Object read(GraphQLFieldDefinition field, Object source, Supplier<DataFetchingEnvironment> environment)
				throws Exception {
			if (this.accessor == null) {
				return this.fallback.get(field, source, environment);
			}
			try {
				return this.accessor.invokeExact(source);
			}
			catch (Exception | Error ex) {
				throw ex;
			}
			catch (Throwable ex) {
				throw new IllegalStateException(ex);
			}
		}

	}

}
