package dev.dynamorelay.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * A key template such as {@code CUSTOMER#{customerId}}: constant text and named placeholders.
 *
 * <p>A template is filled from values by name and matched against a stored key to tell an item's type
 * and to read its placeholders back. A placeholder matches up to the next constant text; the last one
 * takes the rest.
 *
 * @param source the template as written
 * @param parts constant text ({@link Part#constant}) and placeholders, in order; no two placeholders
 * are adjacent
 */
public record KeyTemplate(String source, List<Part> parts) {

	public KeyTemplate {
		Objects.requireNonNull(source, "source");
		parts = List.copyOf(parts);
	}

	/**
	 * Parses a template.
	 * @throws IllegalArgumentException with a message for the author of the template
	 */
	public static KeyTemplate parse(String source) {
		List<Part> parts = new ArrayList<>();
		StringBuilder constant = new StringBuilder();
		int i = 0;
		while (i < source.length()) {
			char c = source.charAt(i);
			if (c == '}') {
				throw new IllegalArgumentException("`}` without `{` in key template `%s`".formatted(source));
			}
			if (c != '{') {
				constant.append(c);
				i++;
				continue;
			}
			int end = source.indexOf('}', i);
			if (end < 0) {
				throw new IllegalArgumentException("`{` without `}` in key template `%s`".formatted(source));
			}
			String name = source.substring(i + 1, end);
			if (!name.matches("[_A-Za-z][_0-9A-Za-z]*")) {
				throw new IllegalArgumentException(
						"placeholder `{%s}` in key template `%s` is not a field or argument name".formatted(name, source));
			}
			if (constant.isEmpty() && !parts.isEmpty()) {
				throw new IllegalArgumentException(
						"placeholders in key template `%s` need constant text between them, such as `#`".formatted(source));
			}
			if (!constant.isEmpty()) {
				parts.add(Part.constant(constant.toString()));
				constant.setLength(0);
			}
			parts.add(Part.placeholder(name));
			i = end + 1;
		}
		if (!constant.isEmpty()) {
			parts.add(Part.constant(constant.toString()));
		}
		if (parts.isEmpty()) {
			throw new IllegalArgumentException("a key template must not be empty");
		}
		return new KeyTemplate(source, parts);
	}

	/** The template of a key that is one attribute's own value: {@code {name}}. */
	public static KeyTemplate of(String placeholder) {
		return new KeyTemplate("{" + placeholder + "}", List.of(Part.placeholder(placeholder)));
	}

	/** Whether the template is a single placeholder, so the key keeps the placeholder's own type. */
	public boolean isPlaceholder() {
		return this.parts.size() == 1 && !this.parts.get(0).isConstant();
	}

	/** Whether the template has no placeholder at all. */
	public boolean isConstant() {
		return this.parts.stream().allMatch(Part::isConstant);
	}

	/** The placeholder names, in order. */
	public List<String> placeholders() {
		return this.parts.stream().filter((part) -> !part.isConstant()).map(Part::text).toList();
	}

	/** The constant text in front of the first placeholder (the whole template when it has none). */
	public String constantPrefix() {
		StringBuilder prefix = new StringBuilder();
		for (Part part : this.parts) {
			if (!part.isConstant()) {
				break;
			}
			prefix.append(part.text());
		}
		return prefix.toString();
	}

	/**
	 * The constant text of a composed template that a placeholder's value must not contain, for the key to
	 * read back as the values it was made of (`{userId}#{projectId}`: no `#` in either); empty for a
	 * template that is one placeholder.
	 */
	public List<String> separators() {
		if (isPlaceholder()) {
			return List.of();
		}
		return this.parts.stream().filter(Part::isConstant).map(Part::text).filter((text) -> !text.isEmpty()).toList();
	}

	/**
	 * The placeholders' values in {@code key} when they read back only one way: empty also when a value could
	 * not have been written ({@link #refusal}), so that another split of the key could give other values.
	 */
	public Optional<Map<String, String>> matchExactly(String key) {
		return match(key).filter((values) -> values.entrySet()
			.stream()
			.allMatch((value) -> refusal(value.getKey(), value.getValue()).isEmpty()));
	}

	/**
	 * Why {@code value} cannot stand for {@code placeholder} in a composed key, in words that end a sentence
	 * beginning with the value's name; empty when it can. A key reads back as the values it was made of only when
	 * no value holds a separator, and none ends with a beginning of the separator after it that makes the separator
	 * appear early: with
	 * {@code CUSTOMER#{customerId}#ORDER#{orderId}}, customerId {@code a#ORDER} and orderId {@code #x} make
	 * {@code CUSTOMER#a#ORDER#ORDER##x}, which reads back as customerId {@code a}.
	 */
	public Optional<String> refusal(String placeholder, String value) {
		for (String separator : separators()) {
			if (value.contains(separator)) {
				return Optional.of("must not contain `%s`: the key `%s` separates its parts with it."
					.formatted(separator, this.source));
			}
		}
		for (int p = 0; p + 1 < this.parts.size(); p++) {
			Part part = this.parts.get(p);
			if (part.isConstant() || !part.text().equals(placeholder)) {
				continue;
			}
			// Where a match would end this value: the first `next` after its first character (as match reads it).
			String next = this.parts.get(p + 1).text();
			int end = (value + next).indexOf(next, 1);
			if (end < value.length()) {
				return Optional.of("must not end with `%s`: in the key `%s` it is followed by `%s`, and the key "
					.formatted(value.substring(end), this.source, next) + "would not read back as written.");
			}
		}
		return Optional.empty();
	}

	/** The number of constant characters: a longer one is the more specific match. */
	public int constantLength() {
		return this.parts.stream().filter(Part::isConstant).mapToInt((part) -> part.text().length()).sum();
	}

	/** The string key of these values, each placeholder's value given by {@code values}. */
	public String fill(Function<String, String> values) {
		StringBuilder key = new StringBuilder();
		for (Part part : this.parts) {
			key.append(part.isConstant() ? part.text() : values.apply(part.text()));
		}
		return key.toString();
	}

	/**
	 * The placeholders' values in {@code key}, or empty when the key does not have this template's shape
	 * (constant text differs, or a placeholder would be empty).
	 */
	public Optional<Map<String, String>> match(String key) {
		Map<String, String> values = new LinkedHashMap<>();
		int at = 0;
		for (int p = 0; p < this.parts.size(); p++) {
			Part part = this.parts.get(p);
			if (part.isConstant()) {
				if (!key.startsWith(part.text(), at)) {
					return Optional.empty();
				}
				at += part.text().length();
				continue;
			}
			int end;
			if (p + 1 < this.parts.size()) {
				end = key.indexOf(this.parts.get(p + 1).text(), at + 1);
				if (end < 0) {
					return Optional.empty();
				}
			}
			else {
				end = key.length();
			}
			if (end <= at) {
				return Optional.empty();
			}
			values.put(part.text(), key.substring(at, end));
			at = end;
		}
		return (at == key.length()) ? Optional.of(values) : Optional.empty();
	}

	@Override
	public String toString() {
		return this.source;
	}

	/**
	 * Constant text or a placeholder.
	 *
	 * @param text the constant text, or the placeholder's name
	 * @param isConstant which of the two
	 */
	public record Part(String text, boolean isConstant) {

		static Part constant(String text) {
			return new Part(text, true);
		}

		static Part placeholder(String name) {
			return new Part(name, false);
		}

	}

}
