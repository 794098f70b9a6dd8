/**
 * DynamoDB Streams in the engine: {@link dev.dynamorelay.engine.streams.Streams} keeps a stream for each table
 * whose {@code StreamSpecification} enables it, fed by the store's commits (it is a
 * {@link dev.dynamorelay.engine.store.CommitListener}), and answers ListStreams, DescribeStream,
 * GetShardIterator and GetRecords with the AWS SDK's model classes.
 *
 * <p>What it takes from the store: {@code tableChanged} with the table as DescribeTable describes it after the
 * change. The store names the stream there ({@code LatestStreamArn}, {@code LatestStreamLabel}: the table's ARN,
 * {@code /stream/}, and the label, the time of the enabling as {@code 2015-05-11T21:21:33.291} in UTC, see
 * {@link dev.dynamorelay.engine.streams.StreamNames}); a description without them gets a stream named so by the
 * time of the call. A stream whose {@code LatestStreamArn} changes, or whose specification no longer enables it,
 * or whose table is deleted, is disabled: its shard closes, and it stays readable for the retention.
 * {@code committed} with each item's old and new image: a change whose images are equal writes no record.
 */
package dev.dynamorelay.engine.streams;
