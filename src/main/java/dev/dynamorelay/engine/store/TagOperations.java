package dev.dynamorelay.engine.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import software.amazon.awssdk.services.dynamodb.model.ListTagsOfResourceRequest;
import software.amazon.awssdk.services.dynamodb.model.ListTagsOfResourceResponse;
import software.amazon.awssdk.services.dynamodb.model.Tag;
import software.amazon.awssdk.services.dynamodb.model.TagResourceRequest;
import software.amazon.awssdk.services.dynamodb.model.TagResourceResponse;
import software.amazon.awssdk.services.dynamodb.model.UntagResourceRequest;
import software.amazon.awssdk.services.dynamodb.model.UntagResourceResponse;

import dev.dynamorelay.engine.action.AwsError;

/**
 * TagResource, UntagResource and ListTagsOfResource on tables, with the checks and messages dynalite's tests
 * recorded of DynamoDB. A table's tags are listed in the order of their keys.
 *
 * <p>See the API Reference, TagResource, UntagResource and ListTagsOfResource.
 */
final class TagOperations {

	/** Anything of six colon-separated parts and a slash: what DynamoDB takes for an ARN at all. */
	private static final Pattern ANY_ARN = Pattern.compile("^.+:.+:.+:.+:.+:.+/.+$");

	private static final Pattern TABLE_ARN = Pattern.compile("^arn:aws:dynamodb:.+:\\d+:table/[^/]{2}[^/]+$");

	private final Database database;

	TagOperations(Database database) {
		this.database = database;
	}

	TagResourceResponse tagResource(TagResourceRequest request) {
		String arn = request.resourceArn();
		checkArn(arn, "TagResource");
		if (!request.hasTags()) {
			throw AwsError.validation("1 validation error detected: Value null at 'tags' failed to satisfy constraint: Member must not be null");
		}
		checkTableArn(arn);
		if (request.tags().isEmpty()) {
			throw AwsError.validation("Atleast one Tag needs to be provided as Input.");
		}
		StoredTable table = table(arn, "Requested resource not found: ResourcArn: " + arn + " not found");
		java.util.concurrent.CompletableFuture<Void> told;
		table.lock.writeLock().lock();
		try {
			Database.stillThere(table);
			for (Tag tag : request.tags()) {
				table.tags.put(tag.key(), tag.value());
			}
			// the journal reads a changed table's tags with ListTagsOfResource, as its Time to Live
			told = this.database.tableChanged(table.describe(), false);
		}
		finally {
			table.lock.writeLock().unlock();
		}
		Database.await(told);
		return TagResourceResponse.builder().build();
	}

	UntagResourceResponse untagResource(UntagResourceRequest request) {
		String arn = request.resourceArn();
		checkArn(arn, "UntagResource");
		if (!request.hasTagKeys()) {
			throw AwsError.validation("1 validation error detected: Value null at 'tagKeys' failed to satisfy constraint: Member must not be null");
		}
		checkTableArn(arn);
		if (request.tagKeys().isEmpty()) {
			throw AwsError.validation("Atleast one Tag Key needs to be provided as Input.");
		}
		StoredTable table = table(arn, "Requested resource not found");
		java.util.concurrent.CompletableFuture<Void> told;
		table.lock.writeLock().lock();
		try {
			Database.stillThere(table);
			for (String key : request.tagKeys()) {
				table.tags.remove(key);
			}
			told = this.database.tableChanged(table.describe(), false);
		}
		finally {
			table.lock.writeLock().unlock();
		}
		Database.await(told);
		return UntagResourceResponse.builder().build();
	}

	ListTagsOfResourceResponse listTagsOfResource(ListTagsOfResourceRequest request) {
		String arn = request.resourceArn();
		checkArn(arn, "ListTagsOfResource");
		checkTableArn(arn);
		StoredTable table = table(arn, "Requested resource not found: ResourcArn: " + arn + " not found");
		List<Tag> tags = new ArrayList<>();
		table.lock.readLock().lock();
		try {
			Database.stillThere(table);
			for (Map.Entry<String, String> tag : table.tags.entrySet()) {
				tags.add(Tag.builder().key(tag.getKey()).value(tag.getValue()).build());
			}
		}
		finally {
			table.lock.readLock().unlock();
		}
		return ListTagsOfResourceResponse.builder().tags(tags).build();
	}

	private void checkArn(String arn, String operation) {
		if (arn == null) {
			throw AwsError.validation("Invalid TableArn");
		}
		if (!ANY_ARN.matcher(arn).matches()) {
			throw AwsError.of("AccessDeniedException", "User: arn:aws:iam::" + this.database.options.accountId()
					+ ":user/engine is not authorized to perform: dynamodb:" + operation + " on resource: " + (arn.isEmpty() ? "*" : arn));
		}
	}

	private static void checkTableArn(String arn) {
		if (!TABLE_ARN.matcher(arn).matches()) {
			throw AwsError.validation("Invalid TableArn: Invalid ResourceArn provided as input " + arn);
		}
	}

	private StoredTable table(String arn, String notFound) {
		String name = arn.substring(arn.lastIndexOf('/') + 1);
		StoredTable table = this.database.tables.get(name);
		if (table == null || table.gone) {
			throw AwsError.resourceNotFound(notFound);
		}
		return table;
	}

}
