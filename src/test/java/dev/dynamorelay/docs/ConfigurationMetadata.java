package dev.dynamorelay.docs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import tools.jackson.databind.json.JsonMapper;

/**
 * The server's own properties ({@code dynamo-relay.*}) as the build describes them: the configuration
 * processor writes {@code META-INF/spring-configuration-metadata.json} from the {@code *Properties}
 * records' Javadoc (and {@code additional-spring-configuration-metadata.json}), the file IDEs read to
 * complete and explain {@code application.yml}.
 */
final class ConfigurationMetadata {

	static final String LOCATION = "META-INF/spring-configuration-metadata.json";

	static final String PREFIX = "dynamo-relay.";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	/**
	 * One property as the metadata has it.
	 *
	 * @param name the property's name, such as {@code dynamo-relay.dynamodb.timeout}
	 * @param type the Java type it binds to, such as {@code java.time.Duration}
	 * @param defaultValue its default where the processor could see one ({@code @DefaultValue}), else null
	 * @param description its description, null when it has none
	 */
	record Property(String name, String type, Object defaultValue, String description) {
	}

	private ConfigurationMetadata() {
	}

	/** The {@code dynamo-relay.*} properties of every metadata file on the class path, by name. */
	static List<Property> properties() {
		Map<String, Property> properties = new TreeMap<>();
		for (URL file : files()) {
			for (Map<?, ?> entry : entries(file)) {
				if (entry.get("name") instanceof String name && name.startsWith(PREFIX)) {
					properties.put(name, new Property(name, (String) entry.get("type"), entry.get("defaultValue"),
							(String) entry.get("description")));
				}
			}
		}
		return List.copyOf(properties.values());
	}

	private static List<URL> files() {
		try {
			List<URL> files = Collections.list(ConfigurationMetadata.class.getClassLoader().getResources(LOCATION));
			files.sort(Comparator.comparing(URL::toString));
			return files;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static List<Map<?, ?>> entries(URL file) {
		try (InputStream in = file.openStream()) {
			Object properties = JSON.readValue(in, Map.class).get("properties");
			List<Map<?, ?>> entries = new ArrayList<>();
			if (properties instanceof List<?> list) {
				list.forEach((entry) -> entries.add((Map<?, ?>) entry));
			}
			return entries;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot read " + file, ex);
		}
	}

}
