package dev.dynamorelay.command.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;

import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.dynamorelay.schema.Suggestions;

/**
 * The configuration properties the jar knows, from the configuration metadata the build generates
 * ({@code META-INF/spring-configuration-metadata.json} and {@code additional-spring-configuration-metadata.json}
 * of every jar on the class path, Spring Boot's own included): what tells a mistyped {@code dynamo-relay.*}
 * property from a real one, and what a mistake's "did you mean" offers.
 *
 * @param names every property named in the metadata, dynamo-relay's and the libraries'
 */
public record PropertyNames(Collection<String> names) {

	/** The project's own properties start so; no other part of the jar reads them. */
	public static final String PREFIX = "dynamo-relay.";

	private static final String[] METADATA = { "META-INF/spring-configuration-metadata.json",
			"META-INF/additional-spring-configuration-metadata.json" };

	/** Spring Boot's switches given as {@code --debug} and {@code --trace}, which name no property in the metadata. */
	private static final List<String> SWITCHES = List.of("debug", "trace");

	/** The names of the metadata on the class path of this class. */
	public static PropertyNames load() {
		TreeSet<String> names = new TreeSet<>();
		JsonMapper json = JsonMapper.builder().build();
		ClassLoader loader = PropertyNames.class.getClassLoader();
		try {
			for (String resource : METADATA) {
				Enumeration<URL> urls = loader.getResources(resource);
				while (urls.hasMoreElements()) {
					try (InputStream in = urls.nextElement().openStream()) {
						json.readTree(in).path("properties").forEach((property) -> {
							JsonNode name = property.get("name");
							if (name != null && name.isString()) {
								names.add(name.asString());
							}
						});
					}
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return new PropertyNames(List.copyOf(names));
	}

	/** Whether {@code name} is one of the project's properties ({@code dynamo-relay.*}). */
	public static boolean ours(String name) {
		return name.toLowerCase(Locale.ROOT).startsWith(PREFIX);
	}

	/**
	 * Whether the project's property {@code name} is one the metadata knows, as Spring binds it: in any of its
	 * relaxed spellings ({@code max-concurrency}, {@code maxConcurrency}), and an element of a list property
	 * ({@code previous-secrets[0]}) included.
	 */
	public boolean known(String name) {
		ConfigurationPropertyName given = ConfigurationPropertyName.adapt(name, '.');
		return this.names.stream().filter(PropertyNames::ours).map(ConfigurationPropertyName::of)
			.anyMatch((known) -> known.equals(given) || known.isAncestorOf(given));
	}

	/** The prefixes of environment variables Spring binds to the project's properties. */
	private static final List<String> VARIABLES = List.of("DYNAMO_RELAY_", "DYNAMORELAY_");

	/**
	 * The variables Kubernetes gives every pod for each Service of its namespace (service links, on by default): a
	 * Service named {@code dynamo-relay} makes {@code DYNAMO_RELAY_SERVICE_HOST}, {@code DYNAMO_RELAY_PORT_8080_TCP}
	 * and the like, which are no property and no mistake.
	 */
	private static final java.util.regex.Pattern SERVICE_LINKS = java.util.regex.Pattern
		.compile("DYNAMO_?RELAY_(SERVICE_(HOST|PORT)(_.*)?|PORT(_\\d+_(TCP|UDP|SCTP)(_(PROTO|PORT|ADDR))?)?)");

	/** Whether the environment variable {@code variable} would be bound to one of the project's properties. */
	public static boolean ours(String variable, boolean environment) {
		return environment && VARIABLES.stream().anyMatch(variable::startsWith)
				&& !SERVICE_LINKS.matcher(variable).matches();
	}

	/**
	 * Whether the environment variable {@code variable} ({@code DYNAMO_RELAY_DYNAMODB_ENDPOINT}) names one of the
	 * project's properties, as Spring maps variables to properties: underscores for dots (and, in the legacy form,
	 * dashes), any case, and a list element's index as Spring writes it ({@code _0}, {@code _0_}, {@code _0_NAME}).
	 */
	public boolean knownVariable(String variable) {
		String given = squashed(variable.replaceAll("_[0-9]+(?=_|$)", "").replaceFirst("_+$", ""));
		return this.names.stream().filter(PropertyNames::ours).anyMatch((name) -> squashed(name).equals(given));
	}

	/** What a mistaken environment variable most likely meant, as a variable of the project's spelling. */
	public Optional<String> variableSuggestion(String variable) {
		String given = variable.toUpperCase(Locale.ROOT);
		return best(this.names.stream()
			.filter(PropertyNames::ours)
			.map(PropertyNames::variable)
			.map((candidate) -> new Candidate(candidate, Suggestions.distance(given, candidate), 0))
			.toList(), Math.max(1, given.length() / 4));
	}

	/** The environment variable of {@code property} as the project writes them: {@code DYNAMO_RELAY_DYNAMODB_ENDPOINT}. */
	public static String variable(String property) {
		return property.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
	}

	private static String squashed(String name) {
		return name.replaceAll("[._-]", "").toLowerCase(Locale.ROOT);
	}

	/**
	 * What a mistaken {@code --name} most likely meant, from {@code options} (a command's own) and the
	 * properties: the closest by edit distance, if close enough to be a slip (a quarter of its length, at least 1);
	 * for a name without a dot, a short or the project's property whose last part it is, too ({@code --port}:
	 * {@code --server.port}).
	 * @return the suggestion, as it would be typed ({@code --server.port})
	 */
	public Optional<String> suggestion(String name, Collection<String> options) {
		String given = name.toLowerCase(Locale.ROOT);
		int bound = Math.max(1, given.length() / 4);
		List<Candidate> candidates = new ArrayList<>();
		for (String option : options) {
			String bare = option.replaceFirst("^-+", "");
			candidates.add(new Candidate(option, Suggestions.distance(given, bare.toLowerCase(Locale.ROOT)), 0));
		}
		for (String property : this.names) {
			String lower = property.toLowerCase(Locale.ROOT);
			int distance = Suggestions.distance(given, lower);
			// A bare word may be the last part of a short property (`port`: `server.port`) or of one of the project's;
			// the last parts of the libraries' long names (`...pushgateway.format`) would be guesses.
			if (!given.contains(".") && (ours(property) || property.chars().filter((c) -> c == '.').count() == 1)) {
				distance = Math.min(distance,
						Suggestions.distance(given, lower.substring(lower.lastIndexOf('.') + 1)));
			}
			// At equal distance the project's own property is the likelier meaning.
			candidates.add(new Candidate("--" + property, distance, ours(property) ? 1 : 2));
		}
		for (String flag : SWITCHES) {
			candidates.add(new Candidate("--" + flag, Suggestions.distance(given, flag), 2));
		}
		return best(candidates, bound);
	}

	/** The one of {@code words} (a command's names, say) closest to {@code word}, if close enough to be a slip. */
	public static Optional<String> closest(String word, Collection<String> words) {
		String given = word.toLowerCase(Locale.ROOT);
		return best(words.stream().map((candidate) -> new Candidate(candidate,
				Suggestions.distance(given, candidate.toLowerCase(Locale.ROOT)), 0)).toList(), Math.max(1, given.length() / 4));
	}

	private static Optional<String> best(List<Candidate> candidates, int bound) {
		return candidates.stream()
			.filter((candidate) -> candidate.distance() <= bound)
			// Of equally close names, the project's own, then the shortest (`server.port` for `port`).
			.min(Comparator.comparingInt(Candidate::distance).thenComparingInt(Candidate::rank)
				.thenComparingInt((candidate) -> candidate.text().length()).thenComparing(Candidate::text))
			.map(Candidate::text);
	}

	/** Whether {@code --name} without a value is one of Spring Boot's switches ({@code --debug}). */
	public static boolean isSwitch(String name) {
		return SWITCHES.contains(name);
	}

	private record Candidate(String text, int distance, int rank) {
	}

}
