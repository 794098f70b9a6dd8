package dev.dynamorelay.bench.abuse;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the abuse section's attacks were answered, counted by kind ("what was sent -> how it was answered"), with
 * the seconds of the deadline requests and of the slow bodies' refusals, the late answers, and how much of a 100 MB
 * body had been sent when it was refused.
 */
final class Answers {

	/** Answers by kind: "what was sent -> how it was answered", counted. */
	final Map<Kind, Map<String, LongAdder>> answers = new ConcurrentHashMap<>();

	/** Seconds from sending to the answer, of the deadline requests and of the slow bodies' refusals. */
	final Map<Kind, ConcurrentLinkedQueue<Double>> seconds = new ConcurrentHashMap<>();

	/** The most of a 100 MB body the client had sent when the refusal came, by variant. */
	final Map<String, AtomicLong> sentBeforeRefusal = new ConcurrentHashMap<>();

	/** The deadline requests answered later than the timeout and its margin: time, when, how. */
	final ConcurrentLinkedQueue<String> late = new ConcurrentLinkedQueue<>();

	void count(Kind kind, String what, String answer) {
		this.answers.computeIfAbsent(kind, (k) -> new ConcurrentHashMap<>())
			.computeIfAbsent(what + " -> " + answer, (k) -> new LongAdder())
			.increment();
	}

	/** A kind's answers so far: "what -> answer xN; ...", sorted. */
	String of(Kind kind) {
		Map<String, Long> counts = new TreeMap<>();
		this.answers.getOrDefault(kind, Map.of()).forEach((key, count) -> counts.put(key, count.sum()));
		return counts.entrySet()
			.stream()
			.map((e) -> "%s x%,d".formatted(e.getKey(), e.getValue()))
			.reduce((a, b) -> a + "; " + b)
			.orElse("none");
	}

	double longest(Kind kind) {
		return this.seconds.getOrDefault(kind, new ConcurrentLinkedQueue<>())
			.stream()
			.mapToDouble(Double::doubleValue)
			.max()
			.orElse(0);
	}

	/** All the answers counted so far, of every kind. */
	long total() {
		return this.answers.values().stream().flatMap((m) -> m.values().stream()).mapToLong(LongAdder::sum).sum();
	}

	/** Each kind's counts: "what -> answer" and how many, sorted. */
	Map<String, Map<String, Long>> counts() {
		Map<String, Map<String, Long>> answers = new LinkedHashMap<>();
		for (Kind kind : Kind.values()) {
			Map<String, Long> counts = new TreeMap<>();
			this.answers.getOrDefault(kind, Map.of()).forEach((key, count) -> counts.put(key, count.sum()));
			answers.put(kind.name(), counts);
		}
		return answers;
	}

	/** Forgets the answers counted so far (the check's, the first round's). */
	void clear() {
		this.answers.clear();
		this.seconds.clear();
		this.late.clear();
		this.sentBeforeRefusal.clear();
	}

}
