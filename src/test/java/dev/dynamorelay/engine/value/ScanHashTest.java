package dev.dynamorelay.engine.value;

import java.util.HexFormat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Scan order's hash is dynalite's, byte for byte: the expected values were computed by dynalite's own
 * numToBuffer and hashPrefix (db/index.js) run under Node.
 */
class ScanHashTest {

	@ParameterizedTest
	@CsvSource({ "0,80,ce212d", "1,c102,c3a031", "-1,3e6466,0267df", "5,c106,d5f50b", "12,c10d,70366a",
			"123,c20218,574207", "1234,c20d23,dbf25c", "0.5,c033,b4a0a7", "-0.5,3f3366,b97920", "1.5,c10233,8158bd",
			"-1.5,3e643366,98f4b1", "100,c202,6840bd", "-100,3d6466,1326ef", "0.001,bf0b,3223fe",
			"-0.001,405b66,e0a1b7", "99.99,c16464,515bd1", "-99.99,3e020266,be5dca",
			"12345678901234567890123456789012345678,d30d23394f5b0d23394f5b0d23394f5b0d23394f,b50a4c",
			"-12345678901234567890123456789012345678,2c59432d170b59432d170b59432d170b59432d1766,089522",
			"1E+125,ff0b,2f2857", "-1E+125,005b66,88ac34", "1E-130,8002,727de7", "-1E-130,7f6466,3ad3e0",
			"3.14159,c1040f105b,fbe1c2", "-273.15,3d631c5666,b27b27", "10,c10b,3c465f", "1000000,c402,2fb2f1" })
	void writesNumbersInDynamoDbsBase100FormAndHashesThemAsDynaliteDoes(String number, String bytes, String hash) {
		assertThat(HexFormat.of().formatHex(ScanHash.numberBytes(number))).isEqualTo(bytes);
		assertThat(ScanHash.of(AttributeValue.fromN(number))).isEqualTo(Integer.parseInt(hash, 16));
	}

	@ParameterizedTest
	@CsvSource({ "a,f6558e", "abc,12db4f", "ü,cba33c", "😀,4f475e", "hello world,f44ba1" })
	void hashesStringsByTheirUtf8Bytes(String text, String hash) {
		assertThat(ScanHash.of(AttributeValue.fromS(text))).isEqualTo(Integer.parseInt(hash, 16));
	}

	@Test
	void hashesBinariesAndPairsOfKeys() {
		assertThat(ScanHash.of(AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] { 0, 1, 2 }))))
			.isEqualTo(0xc0cfcb);
		assertThat(ScanHash.of(AttributeValue.fromS("a"), AttributeValue.fromS("b"))).isEqualTo(0x8d018b);
		assertThat(ScanHash.of(AttributeValue.fromS("a"), AttributeValue.fromN("5"))).isEqualTo(0xc63cab);
	}

	@Test
	void hashesEqualNumbersAlikeWhateverTheirSpelling() {
		assertThat(ScanHash.of(AttributeValue.fromN("1.50"))).isEqualTo(ScanHash.of(AttributeValue.fromN("1.5")));
		assertThat(ScanHash.of(AttributeValue.fromN("1E2"))).isEqualTo(ScanHash.of(AttributeValue.fromN("100")));
	}

}
