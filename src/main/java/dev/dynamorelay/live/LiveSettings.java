package dev.dynamorelay.live;

import java.time.Duration;

/**
 * How live connections read their streams and how many subscriptions they serve.
 *
 * @param pollInterval the wait before a shard is read again after a read that found nothing, while the table
 * has subscribers
 * @param idlePollInterval the same while it has none
 * @param maxSubscriptions the most subscriptions at once
 * @param maxSubscriptionsPerCaller the most subscriptions of one caller at once
 * @param buffer the most changes waiting for one subscriber
 * @param maxReplayReads the most reads of the streams that resumes make at once, over all of them
 * @param replayRate the changes all resumes hand on per second, together
 * @param enabled whether subscriptions are served at all: if not, no stream is read and each is refused
 */
public record LiveSettings(Duration pollInterval, Duration idlePollInterval, int maxSubscriptions,
		int maxSubscriptionsPerCaller, int buffer, int maxReplayReads, int replayRate, boolean enabled) {
}
