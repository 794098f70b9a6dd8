package dev.dynamorelay.command.cli;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What tells a mistyped {@code dynamo-relay.*} property, option or environment variable from a real one, and the
 * "did you mean" it offers: the closest name if close enough to be a slip, the project's own first.
 */
class PropertyNamesTest {

	private static final PropertyNames NAMES = new PropertyNames(List.of("dynamo-relay.dynamodb.endpoint",
			"dynamo-relay.dynamodb.max-concurrency", "dynamo-relay.cursor.previous-secrets", "dynamo-relay.schema.locations",
			"dynamo-relay.tables.prefix", "server.port", "management.server.port", "spring.main.banner-mode",
			"dynamo-relay.live.enabled", "management.enabled", "logging.level"));

	@Test
	void aMistypedPropertyOfTheProjectSuggestsTheOneMeant() {
		assertThat(NAMES.suggestion("dynamo-relay.dynamodb.endpiont", List.of()))
			.contains("--dynamo-relay.dynamodb.endpoint");
		assertThat(NAMES.suggestion("dynamo-relay.schema.location", List.of("--out")))
			.contains("--dynamo-relay.schema.locations");
		assertThat(NAMES.suggestion("Dynamo-Relay.Tables.Prefx", List.of())).contains("--dynamo-relay.tables.prefix");
	}

	@Test
	void aBareWordSuggestsTheShortPropertyItEndsAndACommandsOptionAsWritten() {
		assertThat(NAMES.suggestion("port", List.of())).contains("--server.port");
		assertThat(NAMES.suggestion("enabled", List.of())).as("the project's own before a shorter library's")
			.contains("--dynamo-relay.live.enabled");
		assertThat(NAMES.suggestion("acount", List.of("--account", "--region"))).contains("--account");
		assertThat(NAMES.suggestion("debg", List.of())).contains("--debug");
	}

	@Test
	void aNameFarFromEveryKnownOneSuggestsNothing() {
		assertThat(NAMES.suggestion("dynamo-relay.caching.size", List.of())).isEmpty();
		assertThat(NAMES.suggestion("xyz", List.of("--account"))).isEmpty();
		assertThat(PropertyNames.closest("serve", List.of("export", "check", "generate-schema"))).isEmpty();
	}

	@Test
	void aMistypedCommandSuggestsTheClosestCommand() {
		assertThat(PropertyNames.closest("chek", List.of("export", "check", "generate-schema"))).contains("check");
		assertThat(PropertyNames.closest("generat-schema", List.of("export", "check", "generate-schema")))
			.contains("generate-schema");
	}

	@Test
	void aPropertyIsKnownInEveryRelaxedSpellingAndAsAListsElement() {
		assertThat(NAMES.known("dynamo-relay.dynamodb.max-concurrency")).isTrue();
		assertThat(NAMES.known("dynamo-relay.dynamodb.maxConcurrency")).isTrue();
		assertThat(NAMES.known("dynamo-relay.cursor.previous-secrets[0]")).isTrue();
		assertThat(NAMES.known("dynamo-relay.dynamodb.endpiont")).isFalse();
		assertThat(NAMES.known("server.port")).as("only the project's properties are checked").isFalse();
	}

	@Test
	void onlyTheProjectsPropertiesAreOurs() {
		assertThat(PropertyNames.ours("dynamo-relay.live.enabled")).isTrue();
		assertThat(PropertyNames.ours("DYNAMO-RELAY.live.enabled")).isTrue();
		assertThat(PropertyNames.ours("server.port")).isFalse();
	}

	@Test
	void anEnvironmentVariableIsKnownAsSpringMapsItToAProperty() {
		assertThat(NAMES.knownVariable("DYNAMO_RELAY_DYNAMODB_ENDPOINT")).isTrue();
		assertThat(NAMES.knownVariable("DYNAMORELAY_DYNAMODB_MAXCONCURRENCY")).isTrue();
		assertThat(NAMES.knownVariable("DYNAMO_RELAY_CURSOR_PREVIOUS_SECRETS_0")).isTrue();
		assertThat(NAMES.knownVariable("DYNAMO_RELAY_CURSOR_PREVIOUS_SECRETS_0_")).isTrue();
		assertThat(NAMES.knownVariable("DYNAMO_RELAY_DYNAMODB_ENDPIONT")).isFalse();
		assertThat(NAMES.variableSuggestion("DYNAMO_RELAY_DYNAMODB_ENDPIONT")).contains("DYNAMO_RELAY_DYNAMODB_ENDPOINT");
		assertThat(PropertyNames.variable("dynamo-relay.dynamodb.max-concurrency"))
			.isEqualTo("DYNAMO_RELAY_DYNAMODB_MAX_CONCURRENCY");
	}

	@Test
	void kubernetesServiceLinksAreNoPropertyAndNoMistake() {
		assertThat(PropertyNames.ours("DYNAMO_RELAY_DYNAMODB_ENDPIONT", true)).isTrue();
		assertThat(PropertyNames.ours("DYNAMO_RELAY_DYNAMODB_ENDPOINT", false)).as("not from the environment").isFalse();
		assertThat(PropertyNames.ours("DYNAMO_RELAY_SERVICE_HOST", true)).isFalse();
		assertThat(PropertyNames.ours("DYNAMO_RELAY_SERVICE_PORT_HTTP", true)).isFalse();
		assertThat(PropertyNames.ours("DYNAMO_RELAY_PORT", true)).isFalse();
		assertThat(PropertyNames.ours("DYNAMO_RELAY_PORT_8080_TCP_ADDR", true)).isFalse();
		assertThat(PropertyNames.ours("SERVER_PORT", true)).isFalse();
	}

	@Test
	void theMetadataOnTheClassPathNamesTheProjectsAndSpringBootsProperties() {
		PropertyNames loaded = PropertyNames.load();
		assertThat(loaded.names()).contains("dynamo-relay.dynamodb.endpoint", "dynamo-relay.cursor.secret", "server.port");
		assertThat(loaded.known("dynamo-relay.dynamodb.endpoint")).isTrue();
		assertThat(PropertyNames.isSwitch("debug")).isTrue();
		assertThat(PropertyNames.isSwitch("server.port")).isFalse();
	}

}
