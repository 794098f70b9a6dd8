package dev.dynamorelay.bench.abuse;

import java.io.ByteArrayOutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

import dev.dynamorelay.bench.fairness.Hostile;
import dev.dynamorelay.bench.support.Bench;
import dev.dynamorelay.bench.support.GraphQl;
import dev.dynamorelay.fixtures.RawHttp;

/**
 * The attacks the abuse section's rotating threads send, one step of a {@link Kind} at a time (label bombs,
 * oversized bodies, requests that reach the deadline, forged node ids, bad URLs, wrong JSON types, the actuator on
 * the public port), on a client of their own, every answer counted in {@link Answers}.
 */
final class Attacker {

	private static final ObjectMapper JSON = JsonMapper.builder().build();

	static final byte[] UNAVAILABLE = "\"UNAVAILABLE\"".getBytes(StandardCharsets.UTF_8);

	static final byte[] ERRORS = "\"errors\"".getBytes(StandardCharsets.UTF_8);

	private static final byte[] SCANNED = "\"scannedCount\":".getBytes(StandardCharsets.UTF_8);

	/** The user page the label bombs ask for: the name is the weight, not the query. */
	private static final String LABELLED = "{ users(first: 1) { edges { cursor } } }";

	/** Numbers DynamoDB cannot hold: 41 digits, 1E+126 and its negative, 1E-131 and its negative. */
	private static final List<String> FORGED_YEARS = List.of("1" + "23456789".repeat(5), "1" + "0".repeat(126),
			"-1" + "0".repeat(126), "0." + "0".repeat(130) + "1", "-0." + "0".repeat(130) + "1");

	private static final List<String> BAD_TARGETS = List.of("/api/users%00", "/api/users%FF", "/api/a%5Cb", "/graphql%00",
			"/x%5Cy");

	private static final List<String> WRONG_TYPES = List.of("{\"query\": 42}", "{\"query\": true}", "{\"query\": 4.2}",
			"{\"query\": \"{ __typename }\", \"operationName\": 7}");

	private static final long HUNDRED_MB = 100L * 1024 * 1024;

	/** The deadline's margin: the answer's own serialization and travel, on 2 shared cores. */
	static final Duration DEADLINE_MARGIN = Duration.ofSeconds(1);

	private final Answers answers;

	/** The attacks' own client: a pool apart from the normal clients'. */
	private final CloseableHttpClient attacks = GraphQl.httpClient();

	private final int port;

	/** {@code dynamo-relay.dynamodb.timeout}: the deadline of a request's reads. */
	private final Duration deadline;

	/** Distinct operation names: a counter. */
	private final AtomicLong names = new AtomicLong();

	/** The Content-Length bodies sent, taking /graphql and /api/users in turn. */
	private final AtomicLong lengths = new AtomicLong();

	/** When the measured window's attacks started. */
	volatile long windowStart;

	Attacker(Answers answers, int port, Duration deadline) {
		this.answers = answers;
		this.port = port;
		this.deadline = deadline;
	}

	/** One step of {@code kind}; every answer is counted under the kind. {@code burst} is null in the check. */
	void step(Kind kind, ExecutorService burst) {
		try {
			switch (kind) {
				case LABELS -> labels();
				case OVERSIZED -> oversized();
				case DEADLINE -> deadline(burst);
				case FORGED_IDS -> forgedIds();
				case URLS -> urls();
				case TYPES -> types();
				case PUBLIC_ACTUATOR -> publicActuator();
				case SLOW -> throw new IllegalArgumentException("the slow bodies have their own thread");
			}
		}
		catch (RuntimeException ex) {
			this.answers.count(kind, "step", "client failure: " + ex);
		}
	}

	private void labels() {
		long n = this.names.incrementAndGet();
		String huge = ("Q" + n + "_").concat("x".repeat(500_000));
		post(Kind.LABELS, "500,000-char name", Map.of("query", "query " + huge + " " + LABELLED, "operationName", huge));
		for (int length : new int[] { 100, 150 }) {
			for (int i = 0; i < 5; i++) {
				String name = "N" + this.names.incrementAndGet() + "_";
				name = name + "n".repeat(length - name.length());
				post(Kind.LABELS, "distinct %d-char names".formatted(length),
						Map.of("query", "query " + name + " " + LABELLED, "operationName", name));
			}
		}
	}

	private void post(Kind kind, String what, Map<String, Object> body) {
		Exchange answer = exchange(post("/graphql", JSON.writeValueAsBytes(body)));
		this.answers.count(kind, what, answer.describe());
	}

	private void oversized() {
		this.answers.count(Kind.OVERSIZED, "100 MB chunked to /graphql", stream("/graphql", true));
		String path = (this.lengths.getAndIncrement() % 2 == 0) ? "/graphql" : "/api/users";
		this.answers.count(Kind.OVERSIZED, "Content-Length 100 MB to " + path, stream(path, false));
	}

	/**
	 * A POST of a 100 MB body ({@code {"query": ..., "variables": {"pad": "xxx...}}}) streamed from a 64 KB
	 * buffer, chunked or with its length, until the server answers or closes; then its answer.
	 */
	private String stream(String path, boolean chunked) {
		String variant = (chunked ? "chunked" : "Content-Length");
		try (RawHttp http = new RawHttp(this.port)) {
			byte[] start = "{\"query\": \"{ __typename }\", \"variables\": {\"pad\": \"".getBytes(StandardCharsets.UTF_8);
			byte[] end = "\"}}".getBytes(StandardCharsets.UTF_8);
			http.send(RawHttp.request("POST", path, "Content-Type: application/json",
					chunked ? "Transfer-Encoding: chunked" : "Content-Length: " + HUNDRED_MB));
			long sent = 0;
			try {
				sent += frame(http, start, chunked);
				byte[] pad = "x".repeat(64 * 1024).getBytes(StandardCharsets.US_ASCII);
				while (sent + pad.length + end.length <= HUNDRED_MB && !http.answering()) {
					sent += frame(http, pad, chunked);
				}
				if (!http.answering()) {
					byte[] last = "x".repeat((int) (HUNDRED_MB - sent - end.length)).getBytes(StandardCharsets.US_ASCII);
					sent += frame(http, last, chunked);
					sent += frame(http, end, chunked);
					if (chunked) {
						http.send("0\r\n\r\n");
					}
				}
			}
			catch (UncheckedIOException ex) {
				// Refused and closed while the body was on its way: the answer may still be there to read.
			}
			this.answers.sentBeforeRefusal.computeIfAbsent(variant, (v) -> new AtomicLong()).accumulateAndGet(sent, Math::max);
			return Exchange.describe(http.read());
		}
		catch (UncheckedIOException ex) {
			return "no answer: " + ex.getCause();
		}
	}

	private static int frame(RawHttp http, byte[] bytes, boolean chunked) {
		if (chunked) {
			http.send(Integer.toHexString(bytes.length) + "\r\n");
			http.send(bytes);
			http.send("\r\n");
		}
		else {
			http.send(bytes);
		}
		return bytes.length;
	}

	/** A burst of 4 heavy requests at once (2 of each kind), or one after another in the check. */
	private void deadline(ExecutorService pool) {
		List<Runnable> requests = new ArrayList<>();
		for (int i = 0; i < 2; i++) {
			requests.add(() -> heavy("100 users x 100 purchases x user", Hostile.NESTED.body));
			requests.add(() -> heavy("20 aliased filtered movies pages", Hostile.ALIASES_20.body));
		}
		if (pool == null) {
			requests.forEach(Runnable::run);
			return;
		}
		List<Future<?>> sent = requests.stream().<Future<?>>map(pool::submit).toList();
		for (Future<?> each : sent) {
			try {
				each.get(60, TimeUnit.SECONDS);
			}
			catch (Exception ex) {
				this.answers.count(Kind.DEADLINE, "burst", "client failure: " + ex);
			}
		}
	}

	/** A heavy request: served, cut (it scanned the whole request budget) or UNAVAILABLE, and its time. */
	private void heavy(String what, byte[] body) {
		Exchange answer = exchange(post("/graphql", body));
		String described;
		if (answer.status() != 200 || answer.body() == null) {
			described = answer.describe();
		}
		else if (GraphQl.indexOf(answer.body(), UNAVAILABLE) >= 0) {
			described = "200 UNAVAILABLE";
		}
		else if (GraphQl.indexOf(answer.body(), ERRORS) >= 0) {
			described = answer.describe();
		}
		else {
			described = (scanned(answer.body()) >= Bench.REQUEST_BUDGET) ? "200 cut" : "200 served";
		}
		this.answers.count(Kind.DEADLINE, what, described);
		this.answers.seconds.computeIfAbsent(Kind.DEADLINE, (k) -> new ConcurrentLinkedQueue<>()).add(answer.seconds());
		if (answer.seconds() > this.deadline.plus(DEADLINE_MARGIN).toMillis() / 1000.0) {
			this.answers.late.add("%.2f s (sent %.0f s into the window, %s)".formatted(answer.seconds(),
					(System.nanoTime() - this.windowStart) / 1e9 - answer.seconds(), described));
		}
	}

	private static long scanned(byte[] body) {
		int at = GraphQl.indexOf(Arrays.copyOfRange(body, Math.max(0, body.length - 400), body.length), SCANNED);
		if (at < 0) {
			return -1;
		}
		long scanned = 0;
		for (int i = Math.max(0, body.length - 400) + at + SCANNED.length; i < body.length
				&& Character.isDigit(body[i]); i++) {
			scanned = scanned * 10 + (body[i] - '0');
		}
		return scanned;
	}

	private void forgedIds() {
		String good = movieId("1", "m0000000");
		for (String year : FORGED_YEARS) {
			String forged = movieId(year, "Forged");
			forged(Kind.FORGED_IDS, "node", Map.of("query", "query($id: ID!) { node(id: $id) { id } }", "variables",
					Map.of("id", forged)));
			forged(Kind.FORGED_IDS, "nodes", Map.of("query", "query($ids: [ID!]!) { nodes(ids: $ids) { id } }",
					"variables", Map.of("ids", List.of(good, forged))));
		}
	}

	private void forged(Kind kind, String what, Map<String, Object> body) {
		Exchange answer = exchange(post("/graphql", JSON.writeValueAsBytes(body)));
		String described = answer.describe();
		if (answer.status() == 200 && answer.body() != null) {
			JsonNode json = JSON.readTree(answer.body());
			long requests = json.path("extensions").path("dynamodb").path("requests").asLong(-1);
			described += (requests == 0) ? ", no read" : ", %d reads".formatted(requests);
		}
		this.answers.count(kind, what, described);
	}

	/** A node id as the server writes one: each part's length (7 bits a byte) and bytes, in base64url. */
	static String movieId(String year, String title) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		for (String part : List.of("Movie", year, title)) {
			byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
			int length = bytes.length;
			while ((length & ~0x7F) != 0) {
				out.write((length & 0x7F) | 0x80);
				length >>>= 7;
			}
			out.write(length);
			out.writeBytes(bytes);
		}
		return Base64.getUrlEncoder().withoutPadding().encodeToString(out.toByteArray());
	}

	private void urls() {
		for (String target : BAD_TARGETS) {
			this.answers.count(Kind.URLS, "GET " + target, raw(RawHttp.request("GET", target)));
		}
		for (String target : List.of("/graphql?query=%7B__typename%7D", "/api/users")) {
			this.answers.count(Kind.URLS, "9,000-byte header",
					raw(RawHttp.request("GET", target, "X-Large: " + "a".repeat(9_000))));
		}
	}

	private void types() {
		for (String body : WRONG_TYPES) {
			this.answers.count(Kind.TYPES, body.contains("operationName") ? "operationName 7" : "query not a string",
					exchange(post("/graphql", body.getBytes(StandardCharsets.UTF_8))).describe());
		}
		for (String path : List.of("/graphql", "/api/users")) {
			this.answers.count(Kind.TYPES, "TRACE " + path, raw(RawHttp.request("TRACE", path)));
		}
	}

	private void publicActuator() {
		for (String path : List.of("/actuator/health", "/actuator/health/liveness", "/actuator/prometheus")) {
			this.answers.count(Kind.PUBLIC_ACTUATOR, "GET " + path,
					exchange(new HttpGet("http://127.0.0.1:" + this.port + path)).describe());
		}
	}

	/** One request on a connection of its own; its answer described. */
	private String raw(String request) {
		try (RawHttp http = new RawHttp(this.port)) {
			return Exchange.describe(http.send(request).read());
		}
		catch (UncheckedIOException ex) {
			return "no answer: " + ex.getCause();
		}
	}

	HttpPost post(String path, byte[] body) {
		HttpPost request = new HttpPost("http://127.0.0.1:" + this.port + path);
		request.setEntity(new ByteArrayEntity(body, ContentType.APPLICATION_JSON));
		return request;
	}

	/** A request on the attacks' client. */
	Exchange exchange(ClassicHttpRequest request) {
		return Exchange.of(this.attacks, request);
	}

	CloseableHttpClient client() {
		return this.attacks;
	}

}
