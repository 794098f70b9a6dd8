package dev.dynamorelay.transport.graphql.execution;

import java.util.Optional;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import graphql.GraphQLContext;
import graphql.Scalars;
import graphql.execution.ExecutionStepInfo;
import graphql.execution.MergedField;
import graphql.execution.ResultPath;
import graphql.language.Field;
import graphql.schema.DataFetchingEnvironment;
import graphql.schema.DataFetchingEnvironmentImpl;
import graphql.schema.GraphQLList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

import dev.dynamorelay.access.Caller;
import dev.dynamorelay.budget.ReadStats;
import dev.dynamorelay.error.UnavailableException;
import dev.dynamorelay.transport.request.RequestScope;
import dev.dynamorelay.transport.request.Transport;
import dev.dynamorelay.transport.request.UnavailableFields;
import dev.dynamorelay.transport.web.RequestIdFilter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The GraphQL execution's error lines carry the request's id (a field that DynamoDB did not serve leaves its
 * line to the request, which writes one for all such fields), though they are written off the servlet thread
 * the id was put in the MDC on, and leave that thread's MDC as it was.
 */
class ErrorResolverRequestIdTest {

	private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

	private final Logger logger = (Logger) LoggerFactory.getLogger(ErrorResolver.class);

	@BeforeEach
	void capture() {
		this.logged.start();
		this.logger.addAppender(this.logged);
	}

	@AfterEach
	void release() {
		this.logger.detachAppender(this.logged);
		MDC.clear();
	}

	@Test
	void anInternalErrorIsLoggedUnderTheRequestsId() {
		MDC.put(RequestIdFilter.MDC_KEY, "another-request");
		new ErrorResolver().resolveToSingleError(new IllegalStateException("a bug"), environment("req-7f3a"));
		assertThat(this.logged.list).singleElement()
			.satisfies((event) -> assertThat(event.getMDCPropertyMap()).containsEntry("requestId", "req-7f3a"));
		assertThat(MDC.get(RequestIdFilter.MDC_KEY)).isEqualTo("another-request");
	}

	@Test
	void withoutAnIdTheThreadsMdcStaysAsItIs() {
		new ErrorResolver().resolveToSingleError(new UnavailableException("down", null), environment(null));
		assertThat(this.logged.list).singleElement()
			.satisfies((event) -> assertThat(event.getMDCPropertyMap()).doesNotContainKey("requestId"));
		assertThat(MDC.get(RequestIdFilter.MDC_KEY)).isNull();
	}

	@Test
	void aFieldOfARequestLeavesItsLineToTheRequest() {
		DataFetchingEnvironment environment = environment("req-7f3a");
		UnavailableFields unavailable = RequestScope.of(environment).unavailable();
		new ErrorResolver().resolveToSingleError(new UnavailableException("down", null), environment);
		new ErrorResolver().resolveToSingleError(new UnavailableException("still down", null), environment);
		assertThat(this.logged.list).isEmpty();
		assertThat(unavailable.fields()).isEqualTo(2);
		assertThat(unavailable.summary()).startsWith("2 fields (the first at /users)").contains("down (2 fields)");
	}

	private static DataFetchingEnvironment environment(String requestId) {
		GraphQLContext context = GraphQLContext.newContext().build();
		if (requestId != null) {
			new RequestScope(Optional.of(requestId), Caller.ANONYMOUS, Transport.POST, new ReadStats()).install(context);
		}
		return DataFetchingEnvironmentImpl.newDataFetchingEnvironment()
			.graphQLContext(context)
			.mergedField(MergedField.newMergedField(Field.newField("users").build()).build())
			.executionStepInfo(ExecutionStepInfo.newExecutionStepInfo()
				.type(GraphQLList.list(Scalars.GraphQLString))
				.path(ResultPath.parse("/users"))
				.build())
			.build();
	}

}
