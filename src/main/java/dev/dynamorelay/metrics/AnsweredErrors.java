package dev.dynamorelay.metrics;

import io.micrometer.core.instrument.Metrics;

import dev.dynamorelay.error.ErrorCode;

/**
 * Counts the errors answered outside a GraphQL execution ({@code dynamorelay.errors}, as
 * {@link ServerMeters#error} counts those of executions): a body that is no GraphQL request, a method or
 * media type {@code /graphql} does not take, a refused bearer token, a REST path or parameter that does
 * not exist. They are written from static helpers, filters and handlers, so they count through
 * Micrometer's global registry, to which Spring Boot adds its own (and which records nothing where there is
 * none, as in the commands).
 */
public final class AnsweredErrors {

	private AnsweredErrors() {
	}

	public static void count(ErrorCode code) {
		Metrics.counter("dynamorelay.errors", "code", code.name()).increment();
	}

}
