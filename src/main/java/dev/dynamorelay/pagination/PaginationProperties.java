package dev.dynamorelay.pagination;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Page sizes and the read budgets of connection fields.
 *
 * @param page the default and maximum page size
 * @param readBudget items DynamoDB may scan for one connection field's page
 * @param countBudget items DynamoDB may scan for one {@code totalCount}; beyond it the count is null
 * @param requestBudget items DynamoDB may scan for all the connection fields and {@code totalCount}s of
 * one GraphQL request together; beyond it pages are cut as by the read budget and counts are null
 */
@ConfigurationProperties("dynamo-relay")
public record PaginationProperties(@DefaultValue PageProperties page, @DefaultValue("1000") int readBudget,
		@DefaultValue("10000") int countBudget, @DefaultValue("12000") long requestBudget) {

	/**
	 * @param defaultSize edges in a page when neither {@code first} nor {@code last} is given
	 * @param maxSize the largest {@code first}/{@code last} accepted
	 */
	public record PageProperties(@DefaultValue("20") int defaultSize, @DefaultValue("100") int maxSize) {
	}

}
