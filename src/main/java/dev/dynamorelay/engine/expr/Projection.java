package dev.dynamorelay.engine.expr;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The attributes a read returns: a ProjectionExpression or legacy {@code AttributesToGet}, as document paths.
 * {@link #apply} builds what DynamoDB returns: each path's value at its place, maps holding only the keys asked
 * for, lists only the elements asked for, in the order of their indexes.
 *
 * <p>See the Developer Guide, "Projection expressions".
 *
 * @param paths the paths, in the order written; no two overlap
 */
public record Projection(List<Path> paths) {

	public Projection {
		paths = List.copyOf(paths);
	}

	/** The projection of {@code item}: empty when none of the paths is in it. */
	public Map<String, AttributeValue> apply(Map<String, AttributeValue> item) {
		Map<String, Object> result = new LinkedHashMap<>();
		for (Path path : this.paths) {
			AttributeValue value = path.resolve(item);
			if (value == null) {
				continue;
			}
			List<Path.Element> elements = path.elements();
			if (elements.size() == 1) {
				result.put(path.head(), value);
				continue;
			}
			// Containers are built as mutable maps and index-sorted maps, then turned into values. (Paths that
			// overlap or conflict were refused, so a container is always of the kind its next element expects.)
			Object container = result.computeIfAbsent(path.head(), name -> newContainer(elements.get(1)));
			for (int i = 1; i < elements.size(); i++) {
				Path.Element element = elements.get(i);
				Path.Element next = (i + 1 < elements.size()) ? elements.get(i + 1) : null;
				if (element instanceof Path.Name name && container instanceof LinkedHashMap<?, ?>) {
					@SuppressWarnings("unchecked")
					Map<String, Object> map = (Map<String, Object>) container;
					if (next == null) {
						map.put(name.name(), value);
						break;
					}
					container = map.computeIfAbsent(name.name(), key -> newContainer(next));
				}
				else if (element instanceof Path.Index index && container instanceof TreeMap<?, ?>) {
					@SuppressWarnings("unchecked")
					Map<Integer, Object> list = (Map<Integer, Object>) container;
					if (next == null) {
						list.put(index.index(), value);
						break;
					}
					container = list.computeIfAbsent(index.index(), key -> newContainer(next));
				}
				else {
					break;
				}
			}
		}
		Map<String, AttributeValue> projected = new LinkedHashMap<>();
		for (Map.Entry<String, Object> entry : result.entrySet()) {
			projected.put(entry.getKey(), toValue(entry.getValue()));
		}
		return projected;
	}

	private static Object newContainer(Path.Element next) {
		return (next instanceof Path.Name) ? new LinkedHashMap<String, Object>() : new TreeMap<Integer, Object>();
	}

	@SuppressWarnings("unchecked")
	private static AttributeValue toValue(Object node) {
		if (node instanceof AttributeValue value) {
			return value;
		}
		if (node instanceof TreeMap<?, ?> list) {
			List<AttributeValue> elements = new ArrayList<>();
			for (Object element : list.values()) {
				elements.add(toValue(element));
			}
			return AttributeValue.fromL(elements);
		}
		Map<String, AttributeValue> map = new LinkedHashMap<>();
		for (Map.Entry<String, Object> entry : ((Map<String, Object>) node).entrySet()) {
			map.put(entry.getKey(), toValue(entry.getValue()));
		}
		return AttributeValue.fromM(map);
	}

	/** The top-level attribute names the projection reads. */
	public Set<String> topLevelNames() {
		Set<String> names = new LinkedHashSet<>();
		for (Path path : this.paths) {
			names.add(path.head());
		}
		return names;
	}

	/** The top-level attribute names the projection reads below (a key attribute may not be read so). */
	public Set<String> nestedTopLevelNames() {
		Set<String> names = new LinkedHashSet<>();
		for (Path path : this.paths) {
			if (path.isNested()) {
				names.add(path.head());
			}
		}
		return names;
	}

}
