// The AWS SDK for JavaScript v3 against the engine, as EngineClientsIT starts it (with the tests' own
// operations: one table "things" keyed by the string "id"). ENDPOINT is the engine's address.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DynamoDBClient,
  PutItemCommand,
  GetItemCommand,
  DescribeTableCommand,
  DeleteTableCommand,
  ListTablesCommand,
  TransactWriteItemsCommand,
  ConditionalCheckFailedException,
  TransactionCanceledException,
  ResourceNotFoundException,
  ProvisionedThroughputExceededException,
  InternalServerError,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient, GetRecordsCommand, ListStreamsCommand } from '@aws-sdk/client-dynamodb-streams';

const endpoint = process.env.ENDPOINT;
assert.ok(endpoint, 'ENDPOINT is the engine to test');
const config = {
  endpoint,
  region: 'ap-southeast-2',
  credentials: { accessKeyId: 'anyKey', secretAccessKey: 'anySecret' },
  maxAttempts: 1,
};
const client = new DynamoDBClient(config);

function everyKind(id) {
  return {
    id: { S: id },
    s: { S: 'zé 🎉 "quoted"\n' },
    n: { N: '-12345678901234567890.123456789012345678' },
    b: { B: new Uint8Array([0, 255, 7]) },
    ss: { SS: ['a', 'b'] },
    ns: { NS: ['1', '2.5'] },
    bs: { BS: [new Uint8Array([120])] },
    m: { M: { deep: { L: [{ NULL: true }] } } },
    l: { L: [{ BOOL: true }, { S: '' }] },
  };
}

async function setFaults(faults) {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-amz-target': 'DynamoRelayEngine.SetFaults' },
    body: JSON.stringify({ Faults: faults }),
  });
  assert.equal(response.status, 200);
  return response.json();
}

test('writes and reads an item of every kind of value', async () => {
  await client.send(new PutItemCommand({ TableName: 'things', Item: everyKind('js') }));
  const got = await client.send(new GetItemCommand({ TableName: 'things', Key: { id: { S: 'js' } } }));
  assert.deepEqual(got.Item, everyKind('js'));
  const old = await client.send(new PutItemCommand({
    TableName: 'things', Item: { id: { S: 'js' } }, ReturnValues: 'ALL_OLD',
  }));
  assert.deepEqual(old.Attributes, everyKind('js'));
  const missing = await client.send(new GetItemCommand({ TableName: 'things', Key: { id: { S: 'nobody' } } }));
  assert.equal(missing.Item, undefined);
  assert.match(missing.$metadata.requestId, /^[0-9A-Z]{52}$/);
});

test('reads a described table, its timestamps and the region it signed for', async () => {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: 'things' }));
  assert.ok(Table.CreationDateTime instanceof Date);
  assert.equal(Table.CreationDateTime.getTime(), 1700000000123);
  assert.equal(Table.TableArn, 'arn:aws:dynamodb:ap-southeast-2:000000000000:table/things');
  assert.equal(Table.GlobalSecondaryIndexes[0].IndexName, 'byName');
  const tables = await client.send(new ListTablesCommand({}));
  assert.deepEqual(tables.TableNames, ['things']);
});

test('reads a failed condition with the item it asked for', async () => {
  await client.send(new PutItemCommand({ TableName: 'things', Item: { id: { S: 'held-js' } } }));
  await assert.rejects(client.send(new PutItemCommand({
    TableName: 'things',
    Item: { id: { S: 'held-js' } },
    ConditionExpression: 'attribute_not_exists(id)',
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  })), (error) => {
    assert.ok(error instanceof ConditionalCheckFailedException, error.name);
    assert.equal(error.message, 'The conditional request failed');
    assert.deepEqual(error.Item, { id: { S: 'held-js' } });
    assert.equal(error.$metadata.httpStatusCode, 400);
    return true;
  });
});

test('reads a cancelled transaction with its reasons', async () => {
  await assert.rejects(client.send(new TransactWriteItemsCommand({
    TransactItems: [{ ConditionCheck: { TableName: 'things', Key: { id: { S: 'x' } }, ConditionExpression: 'a = b' } }],
  })), (error) => {
    assert.ok(error instanceof TransactionCanceledException, error.name);
    assert.equal(error.message,
      'Transaction cancelled, please refer cancellation reasons for specific reasons [ConditionalCheckFailed, None]');
    assert.deepEqual(error.CancellationReasons, [
      { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed', Item: { id: { S: 'held' } } },
      { Code: 'None' },
    ]);
    return true;
  });
});

test('reads the engine errors', async () => {
  await assert.rejects(client.send(new GetItemCommand({ TableName: 'nothing', Key: { id: { S: 'a' } } })),
    (error) => error instanceof ResourceNotFoundException && error.message === 'Requested resource not found');
  await assert.rejects(client.send(new DeleteTableCommand({ TableName: 'things' })), (error) => error instanceof InternalServerError && error.$metadata.httpStatusCode === 500);
});

test('retries injected throttling, then reports it as DynamoDB sends it', async () => {
  const patient = new DynamoDBClient({ ...config, maxAttempts: 3 });
  await setFaults({ 'DynamoDB_20120810.ListTables': { ThrottleShare: 1 } });
  try {
    await assert.rejects(patient.send(new ListTablesCommand({})), (error) => {
      assert.ok(error instanceof ProvisionedThroughputExceededException, error.name);
      assert.equal(error.$metadata.attempts, 3);
      return true;
    });
  } finally {
    assert.deepEqual(await setFaults({}), { Faults: {}, Stalled: 0 });
  }
  assert.deepEqual((await patient.send(new ListTablesCommand({}))).TableNames, ['things']);
});

test('reads stream records with the Streams client', async () => {
  const streams = new DynamoDBStreamsClient(config);
  const { Records, NextShardIterator } = await streams.send(new GetRecordsCommand({ ShardIterator: 'it' }));
  assert.equal(NextShardIterator, 'it-next');
  assert.equal(Records.length, 1);
  assert.equal(Records[0].eventName, 'INSERT');
  assert.equal(Records[0].awsRegion, 'ap-southeast-2');
  assert.equal(Records[0].dynamodb.ApproximateCreationDateTime.getTime(), 1700000000123);
  assert.deepEqual(Records[0].dynamodb.NewImage, { id: { S: 'a' }, n: { N: '1' } });
  assert.deepEqual((await streams.send(new ListStreamsCommand({}))).Streams, []);
});
