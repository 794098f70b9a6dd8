package dev.dynamorelay.transport.graphql;

import java.util.List;

import org.springframework.boot.graphql.autoconfigure.GraphQlSourceBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.dynamorelay.access.Access;
import dev.dynamorelay.declaration.Declarations;

/**
 * The schema's {@code @auth} rules on the fields that read no declared items (mutations, fields wired in
 * Java): each checks its own rules first, through {@link GuardedFields}.
 */
@Configuration(proxyBeanMethods = false)
class AccessWiring {

	@Bean
	GraphQlSourceBuilderCustomizer guardedFields(Access access, Declarations declarations) {
		return (builder) -> {
			if (access.enforced()) {
				builder.typeVisitors(List.of(new GuardedFields(access, declarations)));
			}
		};
	}

}
