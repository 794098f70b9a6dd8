package dev.dynamorelay.command.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

import picocli.CommandLine.IVersionProvider;

/**
 * The jar's version, as {@code --version} and the completion script give it: the build's
 * ({@code META-INF/build-info.properties}, which the build writes), else the jar manifest's
 * {@code Implementation-Version}.
 */
public final class Version implements IVersionProvider {

	/** The project's version, or {@code unknown} where neither the build's information nor a manifest says it. */
	public static String of() {
		try (InputStream in = Version.class.getClassLoader().getResourceAsStream("META-INF/build-info.properties")) {
			if (in != null) {
				Properties build = new Properties();
				build.load(in);
				String version = build.getProperty("build.version");
				if (version != null && !version.isBlank()) {
					return version;
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		String manifest = Version.class.getPackage().getImplementationVersion();
		return (manifest != null) ? manifest : "unknown";
	}

	@Override
	public String[] getVersion() {
		return new String[] { "dynamo-relay " + of() };
	}

}
