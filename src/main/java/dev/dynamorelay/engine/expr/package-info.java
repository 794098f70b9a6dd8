/**
 * DynamoDB's expression language: condition, filter, key condition, projection and update expressions, with
 * ExpressionAttributeNames and ExpressionAttributeValues, the reserved words, DynamoDB's limits and its exact
 * messages; and the legacy parameters (Expected, AttributeUpdates, KeyConditions, QueryFilter, ScanFilter,
 * AttributesToGet, ConditionalOperator) converted to the same trees. The store parses a request's expressions here
 * and evaluates the trees on its items; nothing here knows tables.
 *
 * <h2>Using it for a request</h2>
 * In DynamoDB's order of checks (dynalite's, checked against DynamoDB), for an operation:
 * <ol>
 * <li>{@link dev.dynamorelay.engine.expr.ParameterCheck}: expression and legacy parameters not mixed,
 * placeholders only with expressions;</li>
 * <li>the operation's own checks of its key or item values, then the legacy parameters:
 * {@link dev.dynamorelay.engine.expr.Legacy#expected}, {@link dev.dynamorelay.engine.expr.Legacy#attributeUpdates},
 * {@link dev.dynamorelay.engine.expr.Legacy#filter} (QueryFilter, ScanFilter),
 * {@link dev.dynamorelay.engine.expr.Legacy#keyConditions}, {@link dev.dynamorelay.engine.expr.Legacy#attributesToGet};</li>
 * <li>{@link dev.dynamorelay.engine.expr.Expressions#of} with the request's ExpressionAttributeNames and
 * ExpressionAttributeValues (null when absent: {@code req.hasExpressionAttributeNames() ? ... : null}), then
 * {@code update}, {@code condition}, {@code keyCondition}, {@code filter}, {@code projection} for the expressions
 * present (null text gives null), then {@link dev.dynamorelay.engine.expr.Expressions#checkAllUsed} (unused
 * placeholders; the KeyConditionExpression's form);</li>
 * <li>once the table is known: {@link dev.dynamorelay.engine.expr.KeyCondition#resolve} against the key schema of
 * the table or index queried ("Query condition missed key schema element: a"), and the checks DynamoDB makes with
 * the key schema, from the trees' {@code topLevelNames()}, {@code nestedTopLevelNames()},
 * {@link dev.dynamorelay.engine.expr.Update#touchedTopLevelNames} and
 * {@link dev.dynamorelay.engine.expr.Update#assignedType}: "Filter Expression can only contain non-primary key
 * attributes: Primary key attribute: a" (QueryFilter: "QueryFilter can only contain ..."), "Key attributes must be
 * scalars; list random access '[]' and map lookup '.' are not allowed: Key: a" ("IndexKey: c" for an index's),
 * "One or more parameter values were invalid: Cannot update attribute a. This attribute is part of the key",
 * "One or more parameter values were invalid: Type mismatch for Index Key c Expected: S Actual: N IndexName: i".</li>
 * </ol>
 * Every refusal is an {@link dev.dynamorelay.engine.action.AwsError} {@code ValidationException} with DynamoDB's message.
 *
 * <h2>The trees</h2>
 * {@link dev.dynamorelay.engine.expr.Condition} (sealed: And, Or, Not, Compare, Between, In, AttributeExists,
 * AttributeNotExists, AttributeType, BeginsWith, Contains) over {@link dev.dynamorelay.engine.expr.Operand}s (a
 * {@link dev.dynamorelay.engine.expr.Path}, a value, a size) tests an item ({@code Map<String, AttributeValue>},
 * empty when absent). {@link dev.dynamorelay.engine.expr.KeyCondition} holds one predicate per key attribute.
 * {@link dev.dynamorelay.engine.expr.Projection#apply} projects an item. {@link dev.dynamorelay.engine.expr.Update}
 * (sealed actions SET, REMOVE, ADD, DELETE) makes the new item with DynamoDB's runtime errors.
 *
 * <h2>Semantics</h2>
 * As the Developer Guide documents them ("Comparison operator and function reference", "Update expressions"):
 * comparisons of values of different types, or with a missing attribute, are false ({@code <>} is their negation);
 * order comparators and BETWEEN compare strings by UTF-8 bytes, numbers by value, binaries by unsigned bytes; size
 * of strings, binaries, sets, lists and maps; contains on strings, binaries, sets and lists; begins_with on strings
 * and binaries. In an update, every path and value is read from the item as it was; removed list elements are those
 * at their original indexes, elements set beyond a list's end are appended in index order; arithmetic is exact and
 * checked against DynamoDB's 38 digits and range.
 *
 * <h2>Where this differs from dynalite</h2>
 * dynalite's messages were checked against DynamoDB years ago; where DynamoDB now answers otherwise (as DynamoDB
 * Local, Amazon's implementation, answers expression by expression, and other projects' captures of DynamoDB
 * confirm), this follows DynamoDB, as it follows the Developer Guide where dynalite departs from it:
 * <ul>
 * <li>{@code REMOVE a[1], a[2]} removes the elements at indexes 1 and 2 of the list as it was (the Developer
 * Guide's "Removing elements from a list"); dynalite removes them one after the other, the indexes shifting.</li>
 * <li>contains on a list finds elements of any type (a map in a list of maps); dynalite only strings, numbers and
 * binaries.</li>
 * <li>An order comparator or BETWEEN given a value that has no order (BOOL, NULL, a set, a list, a map) is refused:
 * "Incorrect operand type for operator or function; operator or function: &lt;=, operand type: BOOL"; dynalite
 * compares.</li>
 * <li>{@code if_not_exists} or {@code list_append} in a condition is refused with "The function is not allowed in a
 * condition expression; function: if_not_exists", and a condition's function in an update with "The function is
 * not allowed in an update expression; function: size"; dynalite says "Invalid function name".</li>
 * <li>ADD's and DELETE's operand types are refused with "..., operator: ADD, operand type: STRING, typeSet:
 * ALLOWED_FOR_ADD_OPERAND".</li>
 * <li>AND, OR, NOT, BETWEEN, IN, SET, REMOVE, ADD and DELETE are keywords of every grammar (a projection
 * {@code a.in} is a syntax error); {@code NOT NOT c} is a condition; no path starts with a parenthesis
 * ({@code ((a.b).c) = x} is a syntax error); a list index is 0 or digits not starting with 0 ({@code a[01]} is a
 * syntax error); {@code size} may name an attribute in a path without being refused as a reserved word.</li>
 * <li>Parentheses doubled around an operand or condition are refused as the parser commits to them, so before a
 * syntax error further on ({@code a = ((b)) c}); BETWEEN and IN refuse a first operand repeated among the others;
 * {@code SET a = (b) + c} and {@code SET a = ((b))} are parsed (the second refused as redundant).</li>
 * <li>{@code a <> b} with both attributes missing is true (the negation of {@code =}); dynalite says false.</li>
 * <li>A key condition's value of a type other than the key's is refused by {@link KeyCondition#resolve} ("Condition
 * parameter type does not match schema type"), not by the legacy operators' type tables.</li>
 * <li>The limits dynalite lacks: 4096 characters an expression ("Expression size has exceeded the maximum allowed
 * size;", with "expression size: N" for conditions), 300 operators and functions, 100 operands of IN, 32 levels
 * of a path, list indexes up to 2147483647, 255-byte placeholders, 32 levels of nesting in a value; arithmetic
 * results beyond 38 digits ("DynamoDB only supports precision up to 38 digits").</li>
 * </ul>
 *
 * <h2>Where this differs from DynamoDB</h2>
 * <ul>
 * <li>When more than two paths of a projection or update overlap, DynamoDB names a pair chosen by rules not
 * reproduced here; this names the first overlapping pair in the order written, as dynalite does (two paths alike:
 * the same message).</li>
 * <li>The types listed by "Incorrect operand type for operator or function; operator or function: attribute_type,
 * operand type: {...}" and "Invalid attribute type name found; ... valid types: {...}" come in an order DynamoDB
 * does not keep from one answer to the next; this writes one of its orders.</li>
 * <li>Where a syntax error and doubled parentheses meet, DynamoDB's parser recovers from some syntax errors and
 * then reports the parentheses; this follows the cases observed (the parentheses are reported unless the parse
 * met no way on at all).</li>
 * </ul>
 */
package dev.dynamorelay.engine.expr;
