package dev.dynamorelay.command.iam;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.declaration.DeclaredConnection;
import dev.dynamorelay.declaration.DeclaredLookup;
import dev.dynamorelay.declaration.DeclaredMutation;
import dev.dynamorelay.model.ConnectionDefinition;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.Table;
import dev.dynamorelay.sample.SampleAccess.Grant;
import dev.dynamorelay.sample.SampleAccess;

/**
 * The least-privilege IAM policy of a server for its declarations: each DynamoDB action the server's code
 * calls, on the tables and indexes it calls it on, and nothing else.
 *
 * <p>Worked out from the calls in the code, not from the API's read/write groups: connections
 * ({@code ConnectionRead}) call Query or Scan on their table or index; lookups and node ids ({@code ItemLoader})
 * call BatchGetItem on the target's table, as does completing a page of a global index that projects only part
 * of its items (which only DynamoDB knows, so every table whose global index a connection reads gets it); start-up
 * ({@code TableSetup.check}) calls ListTables (which IAM grants on {@code *} only) and DescribeTable, as does the
 * health indicator; creating tables ({@code TableSetup.createMissing}) calls CreateTable and UpdateTable. The
 * sample's own Java code declares its calls in {@link SampleAccess}.
 *
 * @param account the 12-digit AWS account id
 * @param region the AWS region
 * @param statements the policy's statements, in order
 */
public record IamPolicy(String account, String region, List<Statement> statements) {

	/**
	 * One statement: actions allowed on resources.
	 *
	 * @param sid why the statement is there
	 * @param actions the IAM actions, sorted
	 * @param resources the ARNs, sorted
	 */
	public record Statement(String sid, List<String> actions, List<String> resources) {

		Map<String, Object> json() {
			Map<String, Object> json = new LinkedHashMap<>();
			json.put("Sid", this.sid);
			json.put("Effect", "Allow");
			json.put("Action", this.actions);
			json.put("Resource", this.resources);
			return json;
		}

	}

	/**
	 * What a server does beside serving its declarations (and checking its tables at start), each of which
	 * the policy grants the calls of.
	 */
	public enum Activity {

		/** The sample data is loaded at start ({@link SampleAccess#sampleData}). */
		SAMPLE_DATA_LOAD,

		/** Missing tables and indexes are created at start ({@code dynamo-relay.tables.create}). */
		TABLE_CREATION

	}

	/**
	 * The policy of a server for {@code declarations}.
	 * @param activities what else the server does, whose calls the policy grants too
	 */
	public static IamPolicy of(Declarations declarations, String account, String region, Set<Activity> activities) {
		return of(declarations, account, region, activities, java.util.Optional.empty());
	}

	/**
	 * The policy of an instance of a fleet ({@code dynamo-relay.live.broker=redis}) for {@code declarations}: also
	 * the Kinesis Client Library's calls on the lease table named {@code leaseTable} and its index, and on the
	 * coordinator state and worker metrics tables named after it (those AWS lists for a KCL application), with
	 * CreateTable and UpdateTable where the server creates tables.
	 */
	public static IamPolicy of(Declarations declarations, String account, String region, Set<Activity> activities,
			java.util.Optional<String> leaseTable) {
		String arn = "arn:aws:dynamodb:" + region + ":" + account + ":table/";
		Set<String> queried = new TreeSet<>();
		Set<String> scanned = new TreeSet<>();
		Set<String> byKey = new TreeSet<>();
		for (DeclaredConnection connection : declarations.connections()) {
			ConnectionDefinition<?> definition = connection.definition();
			String resource = arn + definition.table() + definition.index().map((index) -> "/index/" + index).orElse("");
			(definition.isScan() ? scanned : queried).add(resource);
			if (definition.globalIndex()) {
				byKey.add(arn + definition.table());
			}
		}
		for (DeclaredLookup lookup : declarations.lookups()) {
			byKey.add(arn + lookup.target().table().physicalName());
		}
		for (Entity entity : declarations.entities().values()) {
			if (entity.node()) {
				byKey.add(arn + entity.table().physicalName());
			}
		}
		Set<String> tables = new TreeSet<>();
		declarations.tables().values().stream().map(Table::physicalName).forEach((table) -> tables.add(arn + table));
		List<Statement> statements = new ArrayList<>();
		add(statements, "QueryConnections", List.of("dynamodb:Query"), queried);
		add(statements, "ScanConnections", List.of("dynamodb:Scan"), scanned);
		add(statements, "ReadItemsByKey", List.of("dynamodb:BatchGetItem"), byKey);
		writes(declarations).forEach((action, written) -> {
			Set<String> resources = new TreeSet<>();
			written.forEach((table) -> resources.add(arn + table));
			add(statements, "Mutations" + action, List.of("dynamodb:" + action), resources);
		});
		Set<String> streams = new TreeSet<>();
		declarations.subscriptions()
			.forEach((subscription) -> streams.add(arn + subscription.connection().definition().table() + "/stream/*"));
		add(statements, "ReadStreams", List.of("dynamodb:DescribeStream", "dynamodb:GetRecords",
				"dynamodb:GetShardIterator"), streams);
		List<Grant> grants = new ArrayList<>();
		if (activities.contains(Activity.SAMPLE_DATA_LOAD)) {
			grants.addAll(SampleAccess.sampleData(declarations));
		}
		for (Grant grant : grants) {
			Set<String> resources = new TreeSet<>();
			grant.tables().forEach((table) -> resources.add(arn + table));
			add(statements, grant.sid(), grant.actions(), resources);
		}
		leaseTable.ifPresent((leases) -> fleet(statements, arn, leases, activities.contains(Activity.TABLE_CREATION)));
		add(statements, "CheckTables", List.of("dynamodb:DescribeTable"), tables);
		add(statements, "ListTables", List.of("dynamodb:ListTables"), Set.of("*"));
		if (activities.contains(Activity.TABLE_CREATION)) {
			add(statements, "CreateTables", List.of("dynamodb:CreateTable", "dynamodb:UpdateTable"), tables);
		}
		return new IamPolicy(account, region, statements);
	}

	/**
	 * The Kinesis Client Library's calls of a fleet's instance: on the lease table, the coordinator state and worker
	 * metrics tables named after it, and the lease table's index of owners (as AWS lists them for a KCL application),
	 * with CreateTable and UpdateTable where the server creates tables.
	 */
	private static void fleet(List<Statement> statements, String arn, String leases, boolean create) {
		Set<String> kcl = new TreeSet<>(List.of(arn + leases, arn + leases + "-CoordinatorState",
				arn + leases + "-WorkerMetricStats"));
		List<String> actions = new ArrayList<>(List.of("dynamodb:DeleteItem", "dynamodb:DescribeTable",
				"dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:Scan", "dynamodb:UpdateItem"));
		if (create) {
			actions.addAll(List.of("dynamodb:CreateTable", "dynamodb:UpdateTable"));
		}
		add(statements, "FleetLeases", actions, kcl);
		add(statements, "FleetLeaseOwners", List.of("dynamodb:Query"),
				Set.of(arn + leases + "/index/LeaseOwnerToLeaseKeyIndex"));
	}

	/**
	 * The write actions the declared mutations call, each with the tables it calls them on, as DynamoDB's table
	 * names: PutItem (creates, their children), UpdateItem (updates, replaces), DeleteItem, ConditionCheckItem
	 * (the items a write references; the parent of a type written as {@code @children}, whose owner a write of
	 * that type may check when the parent's key does not hold it), and GetItem where a write reads first or
	 * answers what a transaction wrote (an update that recomposes index keys, a list, an idempotent write, a
	 * write of children that checks their parent). IAM has no action for a transaction itself:
	 * TransactWriteItems needs the actions of its parts.
	 */
	public static Map<String, Set<String>> writes(Declarations declarations) {
		Map<String, Set<String>> writes = new java.util.TreeMap<>();
		for (DeclaredMutation mutation : declarations.mutations()) {
			String table = mutation.entity().table().physicalName();
			boolean references = false;
			for (var value : mutation.input().shape().all(DeclaredMutation.InputField.Value.class)) {
				if (value.references().isPresent() && mutation.kind() != DeclaredMutation.Kind.DELETE) {
					grant(writes, "ConditionCheckItem", value.references().get().table().physicalName());
					references = true;
				}
			}
			// Which owner rule a parent has is the access rules' to say: the check is granted wherever it may be made.
			List<Entity> parents = declarations.parentsOf(mutation.entity());
			parents.forEach((parent) -> grant(writes, "ConditionCheckItem", parent.table().physicalName()));
			boolean transaction = mutation.input().many() || mutation.input().idempotencyArgument().isPresent()
					|| mutation.input().shape().one(DeclaredMutation.InputField.IdempotencyKey.class).isPresent()
					|| references || !parents.isEmpty();
			switch (mutation.kind()) {
				case CREATE -> {
					grant(writes, "PutItem", table);
					for (var children : mutation.input().shape().all(DeclaredMutation.InputField.Children.class)) {
						grant(writes, "PutItem", children.entity().table().physicalName());
						declarations.parentsOf(children.entity())
							.stream()
							.filter((parent) -> !parent.equals(mutation.entity()))
							.forEach((parent) -> grant(writes, "ConditionCheckItem", parent.table().physicalName()));
					}
				}
				case UPDATE, REPLACE -> {
					grant(writes, "UpdateItem", table);
					if (transaction || (mutation.kind() == DeclaredMutation.Kind.UPDATE && !mutation.entity().indexKeys().isEmpty())) {
						grant(writes, "GetItem", table);
					}
				}
				case DELETE -> {
					grant(writes, "DeleteItem", table);
					if (transaction) {
						grant(writes, "GetItem", table);
					}
				}
			}
		}
		return writes;
	}

	private static void grant(Map<String, Set<String>> writes, String action, String table) {
		writes.computeIfAbsent(action, (key) -> new TreeSet<>()).add(table);
	}

	private static void add(List<Statement> statements, String sid, List<String> actions, Set<String> resources) {
		if (!resources.isEmpty()) {
			statements.add(new Statement(sid, List.copyOf(new TreeSet<>(actions)), List.copyOf(resources)));
		}
	}

	/** The policy document as IAM reads it. */
	public Map<String, Object> json() {
		Map<String, Object> json = new LinkedHashMap<>();
		json.put("Version", "2012-10-17");
		json.put("Statement", this.statements.stream().map(Statement::json).toList());
		return json;
	}

}
