package dev.dynamorelay.dynamodb;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.URI;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

import io.netty.handler.timeout.ReadTimeoutException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.crt.http.HttpException;
import software.amazon.awssdk.profiles.ProfileFile;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.InternalServerErrorException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.thirdparty.jackson.core.JsonParseException;

import dev.dynamorelay.error.UnavailableException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Which failures are UNAVAILABLE, over the SDK's own exception types, built as the SDK builds them
 * (the shapes are those the client throws against a stopped, resetting, frozen or garbling endpoint),
 * and one the real client throws.
 */
class DynamoDbFailuresTest {

	@Test
	void aConnectionRefusedResetOrClosedIsUnavailable() {
		assertThat(DynamoDbFailures.isUnavailable(SdkClientException.builder()
			.message("Unable to execute HTTP request: Connection refused: /127.0.0.1:8000")
			.cause(new ConnectException("Connection refused"))
			.build())).isTrue();
		assertThat(DynamoDbFailures.isUnavailable(SdkClientException.builder()
			.message("Unable to execute HTTP request: The connection was closed during the request.")
			.cause(new IOException("The connection was closed during the request.",
					new SocketException("Connection reset by peer")))
			.build())).isTrue();
	}

	@Test
	void theCrtClientsTransportFailuresAreUnavailable() {
		// A silent DynamoDB: the attempt's timeout cancels the stream, and the CRT client reports that bare.
		assertThat(DynamoDbFailures.isUnavailable(SdkClientException.builder()
			.message("Unable to execute HTTP request: In-flight HTTP-stream has been cancelled by user. (SDK Attempt Count: 3)")
			.cause(new HttpException(0))
			.build())).isTrue();
		// A socket closed under a request: wrapped in an I/O error on this path.
		assertThat(DynamoDbFailures.isUnavailable(SdkClientException.builder()
			.message("Unable to execute HTTP request: socket is closed.")
			.cause(new IOException("socket is closed.", new HttpException(0)))
			.build())).isTrue();
	}

	@Test
	void timeoutsOfTheCallOfAnAttemptOfAReadAndOfConnectionAcquisitionAreUnavailable() {
		assertThat(DynamoDbFailures.isUnavailable(ApiCallTimeoutException.create(4_500))).isTrue();
		assertThat(DynamoDbFailures.isUnavailable(ApiCallAttemptTimeoutException.create(1_666))).isTrue();
		assertThat(DynamoDbFailures.isUnavailable(SdkClientException.builder()
			.message("Unable to execute HTTP request: Read timed out")
			.cause(new IOException("Read timed out", ReadTimeoutException.INSTANCE))
			.build())).isTrue();
		assertThat(DynamoDbFailures.isUnavailable(SdkClientException.builder()
			.message("Unable to execute HTTP request: Acquire operation took longer than the configured maximum time.")
			.cause(new Throwable("Acquire operation took longer than the configured maximum time.",
					new TimeoutException("Acquire operation took longer than 1666 milliseconds.")))
			.build())).isTrue();		// An attempt timeout the SDK declined to retry (its retry quota spent), as it reports one.
		assertThat(DynamoDbFailures.isUnavailable(SdkClientException.builder()
			.message("Unable to execute HTTP request: software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException: "
					+ "HTTP request execution did not complete before the specified timeout configuration: 1666 millis "
					+ "(SDK Attempt Count: 2)")
			.cause(new RuntimeException("software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException",
					ApiCallAttemptTimeoutException.create(1_666)))
			.build())).isTrue();
	}

	@Test
	void throttlingPastRetriesAndServerErrorsAreUnavailable() {
		assertThat(DynamoDbFailures.isUnavailable(ProvisionedThroughputExceededException.builder()
			.statusCode(400)
			.awsErrorDetails(AwsErrorDetails.builder().errorCode("ProvisionedThroughputExceededException").build())
			.message("The level of configured provisioned throughput for the table was exceeded.")
			.build())).isTrue();
		assertThat(DynamoDbFailures.isUnavailable(DynamoDbException.builder()
			.statusCode(400)
			.awsErrorDetails(AwsErrorDetails.builder().errorCode("ThrottlingException").build())
			.build())).isTrue();
		assertThat(DynamoDbFailures.isUnavailable(InternalServerErrorException.builder().statusCode(500).build()))
			.isTrue();
		assertThat(DynamoDbFailures.isUnavailable(DynamoDbException.builder().statusCode(503).build())).isTrue();
	}

	@Test
	void futuresWrappersAreLookedThrough() {
		ApiCallTimeoutException timeout = ApiCallTimeoutException.create(4_500);
		assertThat(DynamoDbFailures.isUnavailable(new CompletionException(new ExecutionException(timeout)))).isTrue();
		assertThat(DynamoDbFailures.isUnavailable(new UnavailableException("DynamoDB did not serve.", null))).isTrue();
	}

	@Test
	void aResponseTheSdkCannotParseIsNotUnavailable() {
		// What the SDK throws when DynamoDB's answer is not JSON (the parser's exception is an IOException).
		JsonParseException parser = new JsonParseException(null, "Unrecognized token 'this': was expecting JSON");
		assertThat(DynamoDbFailures.isUnavailable(SdkClientException.builder()
			.message("Unable to execute HTTP request: " + parser.getMessage())
			.cause(new UncheckedIOException(parser))
			.build())).isFalse();
		assertThat(DynamoDbFailures.isUnavailable(SdkClientException.builder()
			.message("Unable to unmarshall response")
			.cause(parser)
			.build())).isFalse();
	}

	@Test
	void otherClientSideFailuresAreNotUnavailable() {
		assertThat(DynamoDbFailures.isUnavailable(SdkClientException.builder()
			.message("Unable to marshall request to JSON: null")
			.cause(new NullPointerException())
			.build())).isFalse();
		assertThat(DynamoDbFailures.isUnavailable(SdkClientException.create("Unable to load region."))).isFalse();
		assertThat(DynamoDbFailures.isUnavailable(new IllegalStateException("a bug"))).isFalse();
	}

	@Test
	void aRequestDynamoDbRefusedIsNotUnavailable() {
		assertThat(DynamoDbFailures.isUnavailable(ResourceNotFoundException.builder()
			.statusCode(400)
			.awsErrorDetails(AwsErrorDetails.builder().errorCode("ResourceNotFoundException").build())
			.build())).isFalse();
		assertThat(DynamoDbFailures.isUnavailable(DynamoDbException.builder()
			.statusCode(400)
			.awsErrorDetails(AwsErrorDetails.builder().errorCode("ValidationException").build())
			.build())).isFalse();
	}

	@Test
	void credentialsTheClientCannotFindAreNotUnavailable() {
		// The real client fails before it connects anywhere: the profile file it is given is empty.
		ProfileCredentialsProvider none = ProfileCredentialsProvider.builder()
			.profileFile(ProfileFile.builder()
				.content(new ByteArrayInputStream(new byte[0]))
				.type(ProfileFile.Type.CREDENTIALS)
				.build())
			.profileName("nobody")
			.build();
		try (DynamoDbAsyncClient client = DynamoDbAsyncClient.builder()
			.endpointOverride(URI.create("http://127.0.0.1:9"))
			.region(Region.US_EAST_1)
			.credentialsProvider(none)
			.build()) {
			Throwable failure = catchThrowable(() -> client.describeTable((describe) -> describe.tableName("Users")).get());
			assertThat(DynamoDbFailures.unwrap(failure)).isInstanceOf(SdkClientException.class);
			assertThat(DynamoDbFailures.isUnavailable(failure)).as("%s", failure).isFalse();
		}
	}

}
