package dev.dynamorelay.bench.abuse;

import java.util.function.Predicate;

/** The kinds the rotating threads send, one step of each in turn; the slow bodies have their own thread. */
enum Kind {

	LABELS("operation-name label bombs: a 500,000-char name (in the document and operationName, a 1 MB body), "
			+ "distinct names of 100 and of 150 chars", (answer) -> answer.equals("200 ok")),

	OVERSIZED("oversized bodies: a 100 MB `variables` string streamed chunked; Content-Length 100 MB, body "
			+ "streamed", (answer) -> answer.equals("413 INVALID_ARGUMENT")),

	SLOW("slow bodies: %d connections held, Content-Length: 1000, a byte every 5 s".formatted(SlowBodies.CONNECTIONS),
			(answer) -> answer.equals("408 INVALID_ARGUMENT")),

	DEADLINE("requests that reach the deadline, in bursts of 4: 100 users x 100 purchases x user (20,100 items), "
			+ "20 aliased filtered movies pages", (answer) -> answer.equals("200 served") || answer.equals("200 cut")
					|| answer.equals("200 UNAVAILABLE")),

	FORGED_IDS("forged node ids, numeric keys of 41 digits, 1E126, -1E126, 1E-131, -1E-131, in node and nodes",
			(answer) -> answer.equals("200 INVALID_ARGUMENT, no read")),

	URLS("URLs with %00, %FF, %5C; a 9,000-byte header", (answer) -> answer.equals("400 INVALID_ARGUMENT")),

	TYPES("wrong JSON types (query 42, true, 4.2; operationName 7); TRACE",
			(answer) -> answer.equals("400 INVALID_ARGUMENT") || answer.startsWith("405 INVALID_ARGUMENT Allow: GET, ")),

	PUBLIC_ACTUATOR("anonymous /actuator/health, /actuator/health/liveness, /actuator/prometheus on the public port",
			(answer) -> answer.equals("404 NOT_FOUND"));

	final String description;

	final Predicate<String> expected;

	Kind(String description, Predicate<String> expected) {
		this.description = description;
		this.expected = expected;
	}

}
