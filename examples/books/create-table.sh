#!/usr/bin/env bash
# Creates README's example table, `Books`, with six books, on a DynamoDB endpoint (default: the project's own
# engine, `java -jar target/dynamo-relay-0.1.0-SNAPSHOT.jar dynamodb --port 8000`):
#
#   bash examples/books/create-table.sh [ENDPOINT]
#
# Partition key `author` (S), sort key `published` (N, epoch seconds), and a global index `ByGenre` on `genre` (S)
# and `rating` (N). It speaks DynamoDB's own JSON protocol with curl, so it needs nothing else installed; with the
# AWS CLI the same table is
#
#   aws dynamodb create-table --endpoint-url http://localhost:8000 --table-name Books --billing-mode PAY_PER_REQUEST \
#     --attribute-definitions AttributeName=author,AttributeType=S AttributeName=published,AttributeType=N \
#       AttributeName=genre,AttributeType=S AttributeName=rating,AttributeType=N \
#     --key-schema AttributeName=author,KeyType=HASH AttributeName=published,KeyType=RANGE \
#     --global-secondary-indexes 'IndexName=ByGenre,KeySchema=[{AttributeName=genre,KeyType=HASH},{AttributeName=rating,KeyType=RANGE}],Projection={ProjectionType=ALL}'
#
# The engine takes any credentials and does not check signatures, only that a request has one: the header below
# is a well-formed one that signs nothing. Against AWS, use the AWS CLI or an SDK instead.
set -euo pipefail
endpoint="${1:-http://localhost:8000}"

call() {
  curl -sS --fail-with-body "$endpoint" \
    -H "Content-Type: application/x-amz-json-1.0" \
    -H "X-Amz-Target: DynamoDB_20120810.$1" \
    -H "X-Amz-Date: 20260101T000000Z" \
    -H "Authorization: AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=unsigned" \
    -d "$2"
  echo
}

call CreateTable '{
  "TableName": "Books",
  "BillingMode": "PAY_PER_REQUEST",
  "AttributeDefinitions": [
    {"AttributeName": "author", "AttributeType": "S"}, {"AttributeName": "published", "AttributeType": "N"},
    {"AttributeName": "genre", "AttributeType": "S"}, {"AttributeName": "rating", "AttributeType": "N"}],
  "KeySchema": [{"AttributeName": "author", "KeyType": "HASH"}, {"AttributeName": "published", "KeyType": "RANGE"}],
  "GlobalSecondaryIndexes": [{"IndexName": "ByGenre",
    "KeySchema": [{"AttributeName": "genre", "KeyType": "HASH"}, {"AttributeName": "rating", "KeyType": "RANGE"}],
    "Projection": {"ProjectionType": "ALL"}}]
}' > /dev/null

book() { # author, published (epoch seconds), title, genre, rating, tags (a JSON list of strings)
  printf '{"PutRequest": {"Item": {"author": {"S": "%s"}, "published": {"N": "%s"}, "title": {"S": "%s"}, "genre": {"S": "%s"}, "rating": {"N": "%s"}, "tags": {"SS": %s}}}}' "$@"
}

call BatchWriteItem "{\"RequestItems\": {\"Books\": [
  $(book "Ursula K. Le Guin" -63072000 "A Wizard of Earthsea" fantasy 4.6 '["islands", "wizards"]'),
  $(book "Ursula K. Le Guin" -31536000 "The Left Hand of Darkness" science-fiction 4.7 '["winter"]'),
  $(book "Ursula K. Le Guin" 55123200 "The Lathe of Heaven" science-fiction 4.3 '["dreams"]'),
  $(book "Ursula K. Le Guin" 136598400 "The Dispossessed" science-fiction 4.8 '["anarchy", "physics"]'),
  $(book "Octavia E. Butler" 297043200 "Kindred" science-fiction 4.5 '["time travel"]'),
  $(book "Octavia E. Butler" 749433600 "Parable of the Sower" science-fiction 4.6 '["earthseed"]')
]}}" > /dev/null

echo "Created table Books with 6 items at $endpoint"
