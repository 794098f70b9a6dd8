package dev.dynamorelay.bench.abuse;

import java.util.Map;

/** The server's heap after a full GC, its resident set and its threads at one moment. */
record Memory(long heap, long rss, long threads, Map<String, long[]> histogram) {
}
