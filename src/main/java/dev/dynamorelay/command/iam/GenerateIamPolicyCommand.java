package dev.dynamorelay.command.iam;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ConfigurableApplicationContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine.Unmatched;
import tools.jackson.core.util.DefaultIndenter;
import tools.jackson.core.util.DefaultPrettyPrinter;
import tools.jackson.core.util.Separators;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

import dev.dynamorelay.command.cli.Commands;
import dev.dynamorelay.command.iam.IamPolicy.Activity;
import dev.dynamorelay.declaration.DeclarationReader;
import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.declaration.TablesProperties;
import dev.dynamorelay.dynamodb.DynamoDbProperties;
import dev.dynamorelay.sample.SampleAccess;
import dev.dynamorelay.sample.SampleDataProperties;
import dev.dynamorelay.schema.DeclarationException;
import dev.dynamorelay.schema.SchemaFiles;
import dev.dynamorelay.schema.SchemaProperties;

/**
 * {@code java -jar dynamo-relay.jar generate-iam-policy --account ID --region REGION [--property=value...]}:
 * prints the least-privilege IAM policy of a server with the same properties ({@link IamPolicy}) to standard
 * output, and nothing else.
 *
 * <p>It reads the declarations only ({@code dynamo-relay.schema.locations}, {@code dynamo-relay.tables.prefix},
 * from arguments, the environment or {@code application.yml}), through a Spring context of the properties
 * alone: no DynamoDB client, no endpoint, no embedded DynamoDB engine, so it runs in a build before any table
 * exists. Notes (what the policy grants because of which property) and logs go to standard error. A usage
 * mistake is one line and exit code 2; declarations that cannot be read, their problems and exit code 1.
 */
@Command(name = "generate-iam-policy", sortOptions = false,
		customSynopsis = { "java -jar dynamo-relay.jar generate-iam-policy --account ID",
				"    --region REGION [--dynamo-relay.schema.locations=...]",
				"    [--dynamo-relay.tables.prefix=...]" },
		header = "Prints the least-privilege IAM policy of a server with the same properties.",
		description = { "%nEach DynamoDB action the server calls, on the tables and indexes it calls it on, "
				+ "from the schema files alone (no DynamoDB needed). Standard output holds the policy alone; "
				+ "notes on what it grants because of which property go to standard error.", "" },
		footerHeading = "%nProperties (the server's own; also from the environment or application.yml):%n",
		footer = { "  --dynamo-relay.schema.locations=...   the schema files (unset: the sample)",
				"  --dynamo-relay.tables.prefix=...      the prefix of the tables' names",
				"  --dynamo-relay.dynamodb.endpoint=aws  a server on AWS: no sample data loaded, no",
				"                                        CreateTable and UpdateTable",
				"  --dynamo-relay.tables.create=true     CreateTable and UpdateTable (the default only",
				"                                        on the embedded engine)" },
		exitCodeListHeading = "%nExit codes:%n",
		exitCodeList = { "0:the policy was printed", "1:the declarations cannot be read",
				"2:a usage mistake (--account or --region missing or malformed, an argument that is not a property)" })
public final class GenerateIamPolicyCommand implements Callable<Integer> {

	private static final String[] DEFAULTS = Commands.defaults();

	/** Indented as the AWS console shows policies: {@code "name": value}, one array element a line. */
	private static final JsonMapper JSON = JsonMapper.builder()
		.enable(SerializationFeature.INDENT_OUTPUT)
		.defaultPrettyPrinter(new DefaultPrettyPrinter()
			.withSeparators(Separators.createDefaultInstance().withObjectNameValueSpacing(Separators.Spacing.AFTER))
			.withArrayIndenter(DefaultIndenter.SYSTEM_LINEFEED_INSTANCE.withLinefeed("\n"))
			.withObjectIndenter(DefaultIndenter.SYSTEM_LINEFEED_INSTANCE.withLinefeed("\n")))
		.build();

	@Mixin
	private Commands.Help help;

	@Spec
	private CommandSpec spec;

	@Option(names = "--account", required = true, paramLabel = "ID", converter = AccountId.class,
			description = "The 12-digit id of the AWS account that holds the tables.")
	private String account;

	@Option(names = "--region", required = true, paramLabel = "REGION", converter = Region.class,
			description = "The AWS region of the tables (like us-east-1).")
	private String region;

	@Unmatched
	private List<String> properties = new ArrayList<>();

	private GenerateIamPolicyCommand() {
	}

	/**
	 * Prints the policy to {@link System#out}.
	 * @param args {@code --account}, {@code --region} and Spring Boot arguments
	 * @return 0 when the policy was printed, 2 for a usage mistake, 1 when the declarations cannot be read
	 */
	public static int run(String... args) {
		return Commands.execute(new GenerateIamPolicyCommand(), args);
	}

	@Override
	public Integer call() {
		String[] args = Commands.properties(this.spec, this.properties).toArray(String[]::new);
		return Commands.run("generate-iam-policy", (out, err) -> {
			String policy;
			try {
				policy = generate(args, this.account, this.region, err);
			}
			catch (DeclarationException ex) {
				err.println("generate-iam-policy failed: " + ex.getMessage());
				return 1;
			}
			out.print(policy);
			return 0;
		});
	}

	private static String generate(String[] args, String account, String region, PrintStream err) {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(Context.class)
			.web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.registerShutdownHook(false)
			.properties(DEFAULTS)
			.run(args)) {
			SchemaProperties schema = context.getBean(SchemaProperties.class);
			TablesProperties tables = context.getBean(TablesProperties.class);
			Set<Activity> activities = activities(context, tables);
			Declarations declarations = DeclarationReader.read(SchemaFiles.resolve(schema.locations(), context).parse(),
					tables.prefix());
			if (activities.contains(Activity.TABLE_CREATION)) {
				err.println("generate-iam-policy: dynamo-relay.tables.create is true (by default while DynamoDB is "
						+ "embedded), so the policy grants CreateTable and UpdateTable; set it to false, or leave it unset "
						+ "with an endpoint, where the tables are made otherwise.");
			}
			if (activities.contains(Activity.SAMPLE_DATA_LOAD)) {
				err.println("generate-iam-policy: the sample data is loaded at start (dynamo-relay.sample-data.enabled, "
						+ "by default while DynamoDB is embedded), so the policy grants Scan and BatchWriteItem on the "
						+ "sample's tables; set dynamo-relay.dynamodb.endpoint=aws or dynamo-relay.sample-data.enabled=false "
						+ "for a server on AWS.");
			}
			java.util.Optional<String> leaseTable = fleetLeaseTable(context);
			leaseTable.ifPresent((leases) -> err.println("generate-iam-policy: dynamo-relay.live.broker is redis, so the "
					+ "policy grants the Kinesis Client Library's calls on the lease table " + leases + " and the tables "
					+ "named after it (docs/deploying.md, \"Several instances\")."));
			err.flush();
			IamPolicy policy = IamPolicy.of(declarations, account, region, activities, leaseTable);
			return JSON.writeValueAsString(policy.json()) + "\n";
		}
	}

	/** The lease table of a fleet's instance ({@code dynamo-relay.live.broker=redis}); empty for one alone. */
	private static java.util.Optional<String> fleetLeaseTable(ConfigurableApplicationContext context) {
		var environment = context.getEnvironment();
		if (!"redis".equalsIgnoreCase(environment.getProperty("dynamo-relay.live.broker", "none").trim())) {
			return java.util.Optional.empty();
		}
		return java.util.Optional.of(environment.getProperty("dynamo-relay.live.fleet.lease-table", "dynamo-relay-leases"));
	}

	/** What a server with the context's properties does beside serving its declarations. */
	private static Set<Activity> activities(ConfigurableApplicationContext context, TablesProperties tables) {
		Set<Activity> activities = EnumSet.noneOf(Activity.class);
		boolean embedded = context.getBean(DynamoDbProperties.class).embedded();
		if (SampleAccess.served(context.getEnvironment().getProperty("dynamo-relay.schema.locations"))) {
			if (context.getBean(SampleDataProperties.class).enabled(embedded)) {
				activities.add(Activity.SAMPLE_DATA_LOAD);
			}
		}
		if (tables.create(embedded)) {
			activities.add(Activity.TABLE_CREATION);
		}
		return activities;
	}

	/** An AWS account id: 12 digits. */
	static final class AccountId implements ITypeConverter<String> {

		private static final Pattern ACCOUNT = Pattern.compile("[0-9]{12}");

		@Override
		public String convert(String account) {
			if (!ACCOUNT.matcher(account).matches()) {
				throw new TypeConversionException("--account `" + account + "` is not a 12-digit AWS account id.");
			}
			return account;
		}

	}

	/** An AWS region's name, by its shape ({@code us-east-1}, {@code us-gov-west-1}, {@code cn-north-1}). */
	static final class Region implements ITypeConverter<String> {

		private static final Pattern REGION = Pattern.compile("[a-z]{2}(-[a-z]+)+-[0-9]+");

		@Override
		public String convert(String region) {
			if (!REGION.matcher(region).matches()) {
				throw new TypeConversionException("--region `" + region + "` is not an AWS region (like us-east-1).");
			}
			return region;
		}

	}

	/** The context: the properties alone. Not a {@code @Configuration}, so that the server's component scan leaves it out. */
	@EnableConfigurationProperties({ SchemaProperties.class, TablesProperties.class, DynamoDbProperties.class,
			SampleDataProperties.class })
	static class Context {

	}

}
