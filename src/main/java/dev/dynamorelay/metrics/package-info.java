/**
 * The server's meters, published by Micrometer at {@code /actuator/prometheus}: per connection field
 * (pages, DynamoDB requests, items scanned and returned, consumed capacity), GraphQL request latency by
 * operation, errors by code, cost-limit refusals, and DynamoDB call latency by operation. README's
 * "Metrics" lists every name and tag.
 */
package dev.dynamorelay.metrics;
