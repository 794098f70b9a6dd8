// Writes the sample's schema as one SDL file for relay-compiler (relay/schema.graphql, build output),
// from the files the server reads: the declaration language (schema/dynamo-relay.graphqls) and the
// sample's declarations (schema/sample/sample.graphqls). graphql-js builds the schema first, so a
// schema that does not build fails here with graphql-js's message. (The file stays out of
// relay/__generated__/: from there relay-compiler 21 reads no Query root.)
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { buildASTSchema, concatAST, parse, printSchema } from 'graphql';

const web = fileURLToPath(new URL('..', import.meta.url));
const sources = ['../schema/dynamo-relay.graphqls', '../schema/sample/sample.graphqls'];

const documents = sources.map((path) => parse(readFileSync(`${web}/${path}`, 'utf8'), { noLocation: true }));
mkdirSync(`${web}/relay/__generated__`, { recursive: true }); // relay-compiler writes there, but does not create it
writeFileSync(`${web}/relay/schema.graphql`, `${printSchema(buildASTSchema(concatAST(documents)))}\n`);
