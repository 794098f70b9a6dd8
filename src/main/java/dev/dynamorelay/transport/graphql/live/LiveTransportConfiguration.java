package dev.dynamorelay.transport.graphql.live;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.graphql.autoconfigure.GraphQlCorsProperties;
import org.springframework.boot.graphql.autoconfigure.GraphQlProperties;
import org.springframework.boot.graphql.autoconfigure.GraphQlSourceBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.graphql.execution.DataFetcherExceptionResolver;
import org.springframework.graphql.server.WebGraphQlHandler;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.web.socket.server.standard.ServletServerContainerFactoryBean;
import tools.jackson.databind.json.JsonMapper;

import dev.dynamorelay.access.Access;
import dev.dynamorelay.budget.RequestBudgets;
import dev.dynamorelay.dynamodb.tables.DeclaredTables;
import dev.dynamorelay.live.LiveConnections;
import dev.dynamorelay.live.LiveMeters;
import dev.dynamorelay.transport.web.HttpLimitsProperties;

/**
 * Live connections' GraphQL side: the subscriptions' data fetchers, and the WebSocket transport's handler, callers
 * and buffers (the live engine, its stream readers and their settings, is {@code live}'s own).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(WebSocketProperties.class)
class LiveTransportConfiguration {

	/**
	 * Room for a graphql-ws message's own fields ({@code type}, {@code id}) around the request it carries: a
	 * subscribe message carrying the largest request body a POST may send is taken.
	 */
	static final long MESSAGE_ENVELOPE = 1024;

	@Bean
	SubscriptionWiring subscriptionWiring(DeclaredTables tables, LiveConnections live, Access access,
			RequestBudgets budgets) {
		return new SubscriptionWiring(tables.declarations(), live, access, budgets);
	}

	/**
	 * Replaces Boot's handler of the same name: it knows its sessions, to drop, refuse and close them, and takes
	 * a message as large as a request body (dynamo-relay.http.max-body-size) with its envelope.
	 */
	@Bean
	LiveWebSocketHandler graphQlWebSocketHandler(WebGraphQlHandler handler, GraphQlProperties properties,
			JsonMapper json, HttpLimitsProperties limits, LiveConnections live, WebSocketProperties webSocket,
			ObjectProvider<GraphQlCorsProperties> cors) {
		ClosedUnderSends.install();
		@SuppressWarnings("unchecked")
		HttpMessageConverter<Object> converter = (HttpMessageConverter<Object>) (HttpMessageConverter<?>) new JacksonJsonHttpMessageConverter(json);
		return new LiveWebSocketHandler(handler, converter, properties.getWebsocket().getConnectionInitTimeout(),
				properties.getWebsocket().getKeepAlive(), limits.maxBodySize().toBytes() + MESSAGE_ENVELOPE, live.memory(),
				json, webSocket.sendTimeout(), cors.getIfAvailable(GraphQlCorsProperties::new)
					.toCorsConfiguration(), new UpgradeWithoutHeaders(webSocket.compression()));
	}

	/**
	 * graphql-java's execution of subscriptions, where subscriptions of one shape share each change's answer; with
	 * the exception handler Spring GraphQL gives the others, made of the same resolvers as Boot's.
	 */
	@Bean
	GraphQlSourceBuilderCustomizer sharedChanges(ObjectProvider<DataFetcherExceptionResolver> resolvers, JsonMapper json,
			ObjectProvider<LiveMeters> meters) {
		return (builder) -> builder.configureGraphQl((graphQl) -> graphQl.subscriptionExecutionStrategy(new SharedChanges(
				DataFetcherExceptionResolver.createExceptionHandler(resolvers.orderedStream().toList()), json,
				meters.getIfAvailable(() -> LiveMeters.NONE))));
	}

	/** Ties each subscription to its transport connection's account of bytes. */
	@Bean
	LiveOutlets liveOutlets() {
		return new LiveOutlets();
	}

	/**
	 * Tomcat's message buffers of each WebSocket session, small: the handler takes messages in parts of this size,
	 * so they bound no message (with whole messages, each would be the largest message a session could take).
	 */
	@Bean
	ServletServerContainerFactoryBean webSocketContainer() {
		ServletServerContainerFactoryBean container = new ServletServerContainerFactoryBean();
		container.setMaxTextMessageBufferSize(WebSocketBuffers.TEXT);
		container.setMaxBinaryMessageBufferSize(WebSocketBuffers.BINARY);
		return container;
	}

	@Bean
	WebSocketCallers webSocketCallers(ObjectProvider<JwtDecoder> decoder, ObjectProvider<LiveWebSocketHandler> handler) {
		return new WebSocketCallers(decoder, handler);
	}

}
