package dev.dynamorelay.transport.request;

import java.util.Map;
import java.util.Optional;

import graphql.GraphQLContext;
import graphql.schema.DataFetchingEnvironment;
import graphql.schema.DataFetchingEnvironmentImpl;
import org.junit.jupiter.api.Test;
import org.springframework.security.oauth2.jwt.Jwt;

import dev.dynamorelay.access.Caller;
import dev.dynamorelay.budget.ReadStats;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A request's scope as its transport left it in the request's attributes, found by every field of the execution,
 * and each subscription event's scope: the request's caller, id, transport and client with budgets of its own.
 */
class RequestScopeTest {

	private static final Caller ALICE = Caller.of(Jwt.withTokenValue("token").header("alg", "none").subject("alice").build());

	@Test
	void theCallerAndTransportAreThoseTheTransportLeftInTheAttributes() {
		ReadStats stats = new ReadStats();
		RequestScope scope = RequestScope.of(Optional.of("req-1"),
				Map.of(Caller.ATTRIBUTE, ALICE, Transport.ATTRIBUTE, Transport.WEBSOCKET), stats);
		assertThat(scope.id()).contains("req-1");
		assertThat(scope.caller()).isSameAs(ALICE);
		assertThat(scope.transport()).isEqualTo(Transport.WEBSOCKET);
		assertThat(scope.stats()).isSameAs(stats);
	}

	@Test
	void aRequestTheTransportLeftNothingForIsAnAnonymousPost() {
		RequestScope scope = RequestScope.of(Optional.empty(),
				Map.of(Caller.ATTRIBUTE, "alice", Transport.ATTRIBUTE, "GET"), new ReadStats());
		assertThat(scope.caller()).isEqualTo(Caller.ANONYMOUS);
		assertThat(scope.transport()).isEqualTo(Transport.POST);
		assertThat(RequestScope.of(Optional.empty(), Map.of(), new ReadStats()).transport()).isEqualTo(Transport.POST);
	}

	@Test
	void aSubscriptionEventKeepsWhoAndHowButHasBudgetsAndRecordsOfItsOwn() {
		RequestScope subscription = new RequestScope(Optional.of("req-2"), ALICE, Transport.WEBSOCKET, new ReadStats())
			.client("192.0.2.7");
		subscription.pageCut();
		subscription.unavailable().add("/f", new IllegalStateException("x"));
		ReadStats own = new ReadStats();
		RequestScope event = subscription.event(own);
		assertThat(event.id()).contains("req-2");
		assertThat(event.caller()).isSameAs(ALICE);
		assertThat(event.transport()).isEqualTo(Transport.WEBSOCKET);
		assertThat(event.client()).contains("192.0.2.7");
		assertThat(event.stats()).isSameAs(own).isNotSameAs(subscription.stats());
		assertThat(event.cut()).isFalse();
		assertThat(event.unavailable().fields()).isZero();
	}

	@Test
	void everyFieldFindsTheInstalledScopeAndAnEventFieldFindsItsEvent() {
		RequestScope request = new RequestScope(Optional.of("req-3"), ALICE, Transport.POST, new ReadStats());
		GraphQLContext context = GraphQLContext.newContext().build();
		assertThat(RequestScope.in(context)).isEmpty();
		request.install(context);
		assertThat(RequestScope.in(context)).containsSame(request);
		assertThat(RequestScope.of(context)).isSameAs(request);
		DataFetchingEnvironment field = DataFetchingEnvironmentImpl.newDataFetchingEnvironment().graphQLContext(context)
			.build();
		assertThat(RequestScope.of(field)).isSameAs(request);
		RequestScope event = request.event(new ReadStats());
		DataFetchingEnvironment eventField = DataFetchingEnvironmentImpl.newDataFetchingEnvironment()
			.graphQLContext(context)
			.localContext(event)
			.build();
		assertThat(RequestScope.of(eventField)).isSameAs(event);
	}

	@Test
	void anExecutionNoTransportScopedIsAnonymousWithoutAnId() {
		RequestScope scope = RequestScope.of(GraphQLContext.newContext().build());
		assertThat(scope.caller()).isEqualTo(Caller.ANONYMOUS);
		assertThat(scope.transport()).isEqualTo(Transport.POST);
		assertThat(scope.id()).isEmpty();
		assertThat(RequestScope.in(null)).isEmpty();
	}

	@Test
	void whatTheExecutionDidIsRecordedForItsTransport() {
		RequestScope scope = new RequestScope(Optional.empty(), Caller.ANONYMOUS, Transport.GET, new ReadStats());
		assertThat(scope.refusedMutation()).isFalse();
		assertThat(scope.cut()).isFalse();
		assertThat(scope.operationName()).isEmpty();
		scope.refuseMutation();
		scope.pageCut();
		scope.operationName("Orders");
		assertThat(scope.refusedMutation()).isTrue();
		assertThat(scope.cut()).isTrue();
		assertThat(scope.operationName()).contains("Orders");
	}

	@Test
	void onlyGetRefusesMutations() {
		assertThat(Transport.GET.allowsMutations()).isFalse();
		assertThat(Transport.POST.allowsMutations()).isTrue();
		assertThat(Transport.REST.allowsMutations()).isTrue();
		assertThat(Transport.WEBSOCKET.allowsMutations()).isTrue();
	}

}
