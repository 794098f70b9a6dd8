package dev.dynamorelay.command.schemagen;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Turns DynamoDB names (tables, indexes, attributes, key prefixes such as {@code CUSTOMER#}) into GraphQL
 * names: type names in singular PascalCase, field and argument names that keep an attribute's own
 * spelling whenever GraphQL allows it.
 */
final class GraphQlNames {

	private static final Pattern NAME = Pattern.compile("[_A-Za-z][_0-9A-Za-z]*");

	private static final Pattern WORD_SEPARATORS = Pattern.compile("[^A-Za-z0-9]+");

	private static final Pattern COMBINING_MARKS = Pattern.compile("\\p{M}+");

	/** Plurals ending in {@code ies} whose singular ends in {@code ie}, not {@code y}. */
	private static final Set<String> IE_SINGULARS = Set.of("movie", "cookie", "pie", "tie", "lie", "die", "zombie",
			"rookie", "calorie", "selfie", "genie", "brownie", "smoothie", "goalie", "hippie", "prairie", "freebie",
			"newbie", "auntie", "sortie", "hoodie", "veggie", "boogie", "birdie", "magpie", "eerie");

	/** Words that are their own singular. */
	private static final Set<String> INVARIANT = Set.of("series", "species", "news", "means", "analytics",
			"metrics", "statistics", "settings", "sheep", "fish", "aircraft");

	private static final Map<String, String> IRREGULAR = Map.of("people", "person", "children", "child", "men",
			"man", "women", "woman", "mice", "mouse", "geese", "goose", "feet", "foot", "teeth", "tooth", "indices",
			"index");

	private GraphQlNames() {
	}

	/** Whether GraphQL accepts {@code name} as a user-defined name (the {@code __} prefix is reserved). */
	static boolean isValid(String name) {
		return NAME.matcher(name).matches() && !name.startsWith("__");
	}

	/**
	 * A field or argument name for an attribute: the attribute's own name when GraphQL accepts it, else
	 * its words in lowerCamelCase with the case inside each word kept ({@code user-id} is {@code userId},
	 * {@code Order Total} is {@code orderTotal}).
	 */
	static String field(String attribute) {
		if (isValid(attribute)) {
			return attribute;
		}
		List<String> words = words(attribute);
		if (words.isEmpty()) {
			return "attribute";
		}
		StringBuilder name = new StringBuilder(lowerFirst(words.get(0)));
		for (String word : words.subList(1, words.size())) {
			name.append(upperFirst(word));
		}
		return Character.isDigit(name.charAt(0)) ? "_" + name : name.toString();
	}

	/**
	 * The words of a name in PascalCase ({@code order-lines} is {@code OrderLines}, {@code USERS} is
	 * {@code Users}, {@code GSI1} stays {@code GSI1}); empty when the name has no letters or digits.
	 */
	static String pascal(String name) {
		StringBuilder pascal = new StringBuilder();
		for (String word : words(name)) {
			pascal.append(upperFirst(isShouting(word) ? word.toLowerCase(Locale.ROOT) : word));
		}
		return pascal.toString();
	}

	/**
	 * The singular PascalCase type name for a table or key prefix: {@code Movies} is {@code Movie},
	 * {@code order-lines} is {@code OrderLine}, {@code CUSTOMER#} is {@code Customer}.
	 */
	static String typeName(String name) {
		String pascal = pascal(name);
		if (pascal.isEmpty()) {
			return "Item";
		}
		String singular = singular(pascal);
		return Character.isDigit(singular.charAt(0)) ? "Table" + singular : singular;
	}

	/**
	 * A table's name in PascalCase, plural as the table is named ({@code user_purchases} is
	 * {@code UserPurchases}); the root fields that read the table are named from it.
	 */
	static String tablePascal(String table) {
		String pascal = pascal(table);
		if (pascal.isEmpty()) {
			return "Items";
		}
		return Character.isDigit(pascal.charAt(0)) ? "Table" + pascal : pascal;
	}

	/**
	 * What a root field over an index appends to the table's field name: {@code By} and the index's name
	 * in PascalCase, without a second {@code By} or a trailing {@code Index} ({@code ByCategory},
	 * {@code category-index} and {@code CategoryIndex} all give {@code ByCategory}).
	 */
	static String indexSuffix(String index) {
		String pascal = pascal(index);
		if (pascal.length() > "Index".length() && pascal.endsWith("Index")) {
			pascal = pascal.substring(0, pascal.length() - "Index".length());
		}
		if (pascal.length() > 2 && pascal.startsWith("By")
				&& (Character.isUpperCase(pascal.charAt(2)) || Character.isDigit(pascal.charAt(2)))) {
			pascal = pascal.substring(2);
		}
		return "By" + (pascal.isEmpty() ? "Index" : pascal);
	}

	/**
	 * A PascalCase name in lowerCamelCase; a leading acronym becomes lower case as a whole
	 * ({@code URLMappings} is {@code urlMappings}, {@code GSI1} is {@code gsi1}).
	 */
	static String lowerCamel(String pascal) {
		int upper = 0;
		while (upper < pascal.length() && Character.isUpperCase(pascal.charAt(upper))) {
			upper++;
		}
		if (upper <= 1) {
			return lowerFirst(pascal);
		}
		if (upper < pascal.length() && Character.isLowerCase(pascal.charAt(upper))) {
			upper--;
		}
		return pascal.substring(0, upper).toLowerCase(Locale.ROOT) + pascal.substring(upper);
	}

	/** The singular of a PascalCase name's last word ({@code UserPurchases} is {@code UserPurchase}). */
	static String singular(String pascal) {
		int start = pascal.length();
		while (start > 0 && !Character.isUpperCase(pascal.charAt(start - 1))) {
			start--;
		}
		start = Math.max(start - 1, 0);
		return pascal.substring(0, start) + singularWord(pascal.substring(start));
	}

	private static String singularWord(String word) {
		String lower = word.toLowerCase(Locale.ROOT);
		String irregular = IRREGULAR.get(lower);
		if (irregular != null) {
			return Character.isUpperCase(word.charAt(0)) ? upperFirst(irregular) : irregular;
		}
		if (lower.length() < 3 || !lower.endsWith("s") || lower.endsWith("ss") || lower.endsWith("us")
				|| lower.endsWith("is") || INVARIANT.contains(lower)) {
			return word;
		}
		if (lower.endsWith("ies") && !IE_SINGULARS.contains(lower.substring(0, lower.length() - 1))) {
			return word.substring(0, word.length() - 3) + "y";
		}
		if (lower.endsWith("sses") || lower.endsWith("xes") || lower.endsWith("ches") || lower.endsWith("shes")
				|| lower.endsWith("zzes")) {
			return word.substring(0, word.length() - 2);
		}
		return word.substring(0, word.length() - 1);
	}

	/** The ASCII letters and digits of a name, split at everything else; accents are dropped first. */
	private static List<String> words(String name) {
		String ascii = COMBINING_MARKS.matcher(Normalizer.normalize(name, Normalizer.Form.NFD)).replaceAll("");
		List<String> words = new ArrayList<>();
		for (String word : WORD_SEPARATORS.split(ascii)) {
			if (!word.isEmpty()) {
				words.add(word);
			}
		}
		return words;
	}

	/** An upper-case word without digits ({@code ORDER}, not {@code GSI1}): written in capitals, not an acronym. */
	private static boolean isShouting(String word) {
		return word.length() > 1 && word.chars().allMatch((c) -> c >= 'A' && c <= 'Z');
	}

	static String upperFirst(String word) {
		return word.isEmpty() ? word : Character.toUpperCase(word.charAt(0)) + word.substring(1);
	}

	private static String lowerFirst(String word) {
		return word.isEmpty() ? word : Character.toLowerCase(word.charAt(0)) + word.substring(1);
	}

}
