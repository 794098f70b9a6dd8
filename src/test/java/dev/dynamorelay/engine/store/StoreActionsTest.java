package dev.dynamorelay.engine.store;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.services.dynamodb.model.ListTablesResponse;

import dev.dynamorelay.engine.action.Action;

import static org.assertj.core.api.Assertions.assertThat;

class StoreActionsTest {

	@Test
	void registersEveryOperationOnceUnderItsTarget() {
		try (Database database = Fixtures.database()) {
			List<Action<?, ?>> actions = StoreActions.all(database);
			Set<String> targets = new HashSet<>();
			for (Action<?, ?> action : actions) {
				assertThat(targets.add(action.target())).isTrue();
				assertThat(action.target()).startsWith("DynamoDB_20120810.");
			}
			assertThat(targets).hasSize(20).contains("DynamoDB_20120810.TransactWriteItems", "DynamoDB_20120810.UpdateTimeToLive");
			Fixtures.hashTable(database, "listed", "S");
			Action<?, ?> list = actions.stream().filter((action) -> action.target().endsWith(".ListTables")).findFirst().orElseThrow();
			SdkPojo request = list.requestBuilder();
			assertThat(((ListTablesResponse) list.execute(request)).tableNames()).containsExactly("listed");
		}
	}

}
