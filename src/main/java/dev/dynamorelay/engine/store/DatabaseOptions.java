package dev.dynamorelay.engine.store;

import java.time.Clock;
import java.time.Duration;

/**
 * How a {@link Database} behaves where DynamoDB leaves room: its region and account in ARNs, how long tables
 * stay CREATING or DELETING, how often Time to Live looks for expired items, and the bounds tests lower.
 *
 * @param region the region in ARNs: a database is one region, as a DynamoDB endpoint is
 * @param accountId the twelve-digit account in ARNs
 * @param tableStatusDelay how long a created table stays CREATING, a deleted one DELETING, a changed one
 * UPDATING, and a new index CREATING before it is backfilled (zero: the answer says CREATING and the table is
 * ACTIVE at once)
 * @param timeToLiveSweep how often expired items are looked for and deleted (DynamoDB deletes them "within a
 * few days"; zero or negative: never, for tests that delete by hand with {@link Database#expireItems()})
 * @param itemCollectionLimitBytes the largest item collection of a table with a local secondary index
 * (DynamoDB's 10 GB)
 * @param transactionTokenTtl how long a ClientRequestToken of TransactWriteItems is remembered (10 minutes)
 * @param maxTransactionTokens how many ClientRequestTokens are remembered at most; the oldest are forgotten
 * first when more are given within their time
 * @param clock the clock of creation times, Time to Live and token expiry
 */
public record DatabaseOptions(String region, String accountId, Duration tableStatusDelay, Duration timeToLiveSweep,
		long itemCollectionLimitBytes, Duration transactionTokenTtl, int maxTransactionTokens, Clock clock) {

	/** 10 GB, DynamoDB's bound on an item collection where a local secondary index exists. */
	public static final long TEN_GB = 10L * 1024 * 1024 * 1024;

	/** us-east-1, account 000000000000, tables ACTIVE at once, expired items looked for every 10 s. */
	public static DatabaseOptions defaults() {
		return new DatabaseOptions("us-east-1", "000000000000", Duration.ZERO, Duration.ofSeconds(10), TEN_GB,
				Duration.ofMinutes(10), 1_000_000, Clock.systemUTC());
	}

	/** These options in another region. */
	public DatabaseOptions withRegion(String newRegion) {
		return new DatabaseOptions(newRegion, this.accountId, this.tableStatusDelay, this.timeToLiveSweep,
				this.itemCollectionLimitBytes, this.transactionTokenTtl, this.maxTransactionTokens, this.clock);
	}

	/** These options with another delay of table and index states. */
	public DatabaseOptions withTableStatusDelay(Duration delay) {
		return new DatabaseOptions(this.region, this.accountId, delay, this.timeToLiveSweep, this.itemCollectionLimitBytes,
				this.transactionTokenTtl, this.maxTransactionTokens, this.clock);
	}

	/** These options with another Time to Live sweep interval. */
	public DatabaseOptions withTimeToLiveSweep(Duration sweep) {
		return new DatabaseOptions(this.region, this.accountId, this.tableStatusDelay, sweep, this.itemCollectionLimitBytes,
				this.transactionTokenTtl, this.maxTransactionTokens, this.clock);
	}

	/** These options with another bound on item collections. */
	public DatabaseOptions withItemCollectionLimitBytes(long limit) {
		return new DatabaseOptions(this.region, this.accountId, this.tableStatusDelay, this.timeToLiveSweep, limit,
				this.transactionTokenTtl, this.maxTransactionTokens, this.clock);
	}

	/** These options with another clock. */
	public DatabaseOptions withClock(Clock newClock) {
		return new DatabaseOptions(this.region, this.accountId, this.tableStatusDelay, this.timeToLiveSweep,
				this.itemCollectionLimitBytes, this.transactionTokenTtl, this.maxTransactionTokens, newClock);
	}

}
