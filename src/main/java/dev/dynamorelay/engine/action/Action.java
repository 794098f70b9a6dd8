package dev.dynamorelay.engine.action;

import java.util.function.Function;
import java.util.function.Supplier;

import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.utils.builder.SdkBuilder;

/**
 * One operation of the wire protocol: the {@code X-Amz-Target} that names it ({@code DynamoDB_20120810.PutItem},
 * {@code DynamoDBStreams_20120810.GetRecords}), a new builder of its request (the SDK's own, which the wire
 * fills from the JSON body by its field metadata), and what runs it. The request and answer are the AWS SDK's
 * model classes: the wire format is described once, by the SDK.
 *
 * @param target the {@code X-Amz-Target} header's value
 * @param newRequest a new, empty builder of the request; it is an {@link SdkPojo} and an {@link SdkBuilder}
 * @param run runs the operation; a refusal is an {@link AwsError}
 */
public record Action<Q extends SdkRequest, R extends SdkResponse>(String target,
		Supplier<? extends SdkBuilder<?, Q>> newRequest, Function<Q, R> run) {

	/** A new, empty builder of the request, to be filled by its {@link SdkPojo#sdkFields()}. */
	public SdkPojo requestBuilder() {
		return (SdkPojo) this.newRequest.get();
	}

	/** Builds the request filled in {@code builder} and runs the operation on it. */
	@SuppressWarnings("unchecked")
	public R execute(SdkPojo builder) {
		return this.run.apply(((SdkBuilder<?, Q>) builder).build());
	}

}
