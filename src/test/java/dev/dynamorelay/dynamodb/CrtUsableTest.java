package dev.dynamorelay.dynamodb;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.crt.CrtRuntimeException;
import software.amazon.awssdk.http.crt.AwsCrtAsyncHttpClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The AWS CRT's HTTP client is used only where it can be made: a host without the system's CA certificates
 * (the CRT's own refusal, as a minimal container base gave it) or without its native library gets Netty's.
 */
class CrtUsableTest {

	@Test
	void theCrtClientIsMadeOnThisMachine() {
		assertThat(DynamoDbConfiguration.crtUsable(() -> AwsCrtAsyncHttpClient.builder().build())).isTrue();
	}

	@Test
	void aHostWithoutCaCertificatesOrTheNativeLibraryGetsNetty() {
		assertThat(DynamoDbConfiguration.crtUsable(() -> {
			throw new CrtRuntimeException("TlsContext.tls_ctx_new: Failed to create new aws_tls_ctx "
					+ "(aws_last_error: AWS_IO_TLS_ERROR_DEFAULT_TRUST_STORE_NOT_FOUND(1173))");
		})).isFalse();
		assertThat(DynamoDbConfiguration.crtUsable(() -> {
			throw new UnsatisfiedLinkError("no aws-crt-jni in java.library.path");
		})).isFalse();
	}

}
