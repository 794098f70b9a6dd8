package dev.dynamorelay.engine.store;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.ListTagsOfResourceRequest;
import software.amazon.awssdk.services.dynamodb.model.Tag;
import software.amazon.awssdk.services.dynamodb.model.TagResourceRequest;
import software.amazon.awssdk.services.dynamodb.model.UntagResourceRequest;

import static dev.dynamorelay.engine.store.Fixtures.assertError;
import static dev.dynamorelay.engine.store.Fixtures.assertValidation;
import static dev.dynamorelay.engine.store.Fixtures.definition;
import static dev.dynamorelay.engine.store.Fixtures.hash;
import static org.assertj.core.api.Assertions.assertThat;

/** TagResource, UntagResource and ListTagsOfResource, with the messages of dynalite's tests. */
class TagsTest {

	private static final String ARN = "arn:aws:dynamodb:us-east-1:000000000000:table/tagged";

	private final Database database = Fixtures.database();

	@AfterEach
	void close() {
		this.database.close();
	}

	private List<Tag> tags() {
		return this.database.listTagsOfResource(ListTagsOfResourceRequest.builder().resourceArn(ARN).build()).tags();
	}

	private static Tag tag(String key, String value) {
		return Tag.builder().key(key).value(value).build();
	}

	@Test
	void keepsATablesTagsInKeyOrder() {
		this.database.createTable(CreateTableRequest.builder().tableName("tagged").attributeDefinitions(definition("pk", "S")).keySchema(hash("pk"))
			.billingMode(BillingMode.PAY_PER_REQUEST).tags(tag("team", "a")).build());
		this.database.tagResource(TagResourceRequest.builder().resourceArn(ARN).tags(tag("env", "test"), tag("team", "b")).build());
		assertThat(tags()).containsExactly(tag("env", "test"), tag("team", "b"));
		this.database.untagResource(UntagResourceRequest.builder().resourceArn(ARN).tagKeys("env", "none").build());
		assertThat(tags()).containsExactly(tag("team", "b"));
	}

	@Test
	void tellsTheListenersOfTagChangesAndRestoresTags() {
		Fixtures.hashTable(this.database, "tagged", "S");
		List<String> heard = new java.util.ArrayList<>();
		this.database.addCommitListener(new CommitListener() {

			@Override
			public java.util.concurrent.CompletableFuture<Void> committed(java.time.Instant time, List<ItemChange> changes) {
				return DONE;
			}

			@Override
			public java.util.concurrent.CompletableFuture<Void> tableChanged(java.time.Instant time,
					software.amazon.awssdk.services.dynamodb.model.TableDescription description, boolean deleted) {
				heard.add(description.tableName());
				return DONE;
			}

		});
		this.database.tagResource(TagResourceRequest.builder().resourceArn(ARN).tags(tag("a", "1")).build());
		this.database.untagResource(UntagResourceRequest.builder().resourceArn(ARN).tagKeys("a").build());
		assertThat(heard).containsExactly("tagged", "tagged");
		try (Database restored = Fixtures.database()) {
			restored.restoreTable(this.database.describeTable(software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest.builder()
				.tableName("tagged").build()).table(), null, List.of(tag("k", "v")));
			assertThat(restored.listTagsOfResource(ListTagsOfResourceRequest.builder().resourceArn(ARN).build()).tags()).containsExactly(tag("k", "v"));
		}
	}

	@Test
	void refusesWhatIsNoTableArnAndTablesThatAreNotThere() {
		assertValidation(() -> this.database.listTagsOfResource(ListTagsOfResourceRequest.builder().build()), "Invalid TableArn");
		assertError(() -> this.database.tagResource(TagResourceRequest.builder().resourceArn("abcd").tags(tag("a", "b")).build()),
				"AccessDeniedException", "User: arn:aws:iam::000000000000:user/engine is not authorized to perform: dynamodb:TagResource on resource: abcd");
		assertError(() -> this.database.listTagsOfResource(ListTagsOfResourceRequest.builder().resourceArn("").build()),
				"AccessDeniedException", "User: arn:aws:iam::000000000000:user/engine is not authorized to perform: dynamodb:ListTagsOfResource on resource: *");
		assertValidation(() -> this.database.tagResource(TagResourceRequest.builder().resourceArn("a:b:c:d:e:f/g").tags(tag("a", "b")).build()),
				"Invalid TableArn: Invalid ResourceArn provided as input a:b:c:d:e:f/g");
		assertValidation(() -> this.database.tagResource(TagResourceRequest.builder().resourceArn(ARN).build()),
				"1 validation error detected: Value null at 'tags' failed to satisfy constraint: Member must not be null");
		assertValidation(() -> this.database.tagResource(TagResourceRequest.builder().resourceArn(ARN).tags(List.of()).build()),
				"Atleast one Tag needs to be provided as Input.");
		assertValidation(() -> this.database.untagResource(UntagResourceRequest.builder().resourceArn(ARN).tagKeys(List.of()).build()),
				"Atleast one Tag Key needs to be provided as Input.");
		assertError(() -> this.database.tagResource(TagResourceRequest.builder().resourceArn(ARN).tags(tag("a", "b")).build()),
				"ResourceNotFoundException", "Requested resource not found: ResourcArn: " + ARN + " not found");
		assertError(() -> this.database.untagResource(UntagResourceRequest.builder().resourceArn(ARN).tagKeys("a").build()),
				"ResourceNotFoundException", "Requested resource not found");
	}

}
