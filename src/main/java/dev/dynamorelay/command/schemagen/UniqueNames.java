package dev.dynamorelay.command.schemagen;

import java.util.HashSet;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Names already given in one scope (the schema's types, one type's fields, one field's arguments); a
 * name that is taken gets the first free number appended ({@code Movie2}).
 */
final class UniqueNames {

	private final Set<String> taken = new HashSet<>();

	UniqueNames(String... reserved) {
		this.taken.addAll(Set.of(reserved));
	}

	/** {@code candidate}, or {@code candidate} with a number when taken; taken from now on. */
	String claim(String candidate) {
		return claim(candidate, new String[0]);
	}

	/**
	 * A free name such that it and it followed by each of {@code suffixes} are all free ({@code Movie} with
	 * {@code MovieConnection} and {@code MovieEdge}); all of them taken from now on.
	 */
	String claim(String candidate, String... suffixes) {
		String name = candidate;
		for (int number = 2; !isFree(name, suffixes); number++) {
			name = candidate + number;
		}
		this.taken.add(name);
		for (String suffix : suffixes) {
			this.taken.add(name + suffix);
		}
		return name;
	}

	/**
	 * {@code candidate}, or {@code candidate} with the first number that makes it free, passing over the
	 * names {@code refused} says no to; taken from now on.
	 */
	String claim(String candidate, Predicate<String> refused) {
		String name = candidate;
		for (int number = 2; !isFree(name) || refused.test(name); number++) {
			name = candidate + number;
		}
		this.taken.add(name);
		return name;
	}

	private boolean isFree(String name, String... suffixes) {
		if (this.taken.contains(name)) {
			return false;
		}
		for (String suffix : suffixes) {
			if (this.taken.contains(name + suffix)) {
				return false;
			}
		}
		return true;
	}

}
