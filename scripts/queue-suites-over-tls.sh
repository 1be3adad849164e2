#!/usr/bin/env bash
# The queue test suites against a Redis that speaks TLS only, with an ACL user (docs/redis.md#tls-and-acl-users).
#
# Starts a redis-server of its own on a free 127.0.0.1 port: TLS only (no plain port), a client certificate required,
# the default user off and one ACL user with a random password; the certificate authority, the server certificate (for
# 127.0.0.1) and the client certificate are made here with openssl. It checks that a plain connection and a TLS one
# without the user's password are refused, then runs the queue suites with TEST_REDIS_URL=rediss://runner:…@127.0.0.1:port
# and TEST_REDIS_TLS_CA_FILE / TEST_REDIS_TLS_CERT_FILE / TEST_REDIS_TLS_KEY_FILE (test/helpers/redis.ts passes them to
# the service as REDIS_URL and REDIS_TLS_*), prints how many commands the TLS Redis served, and stops the server.
#
# Usage: scripts/queue-suites-over-tls.sh [--without-e2e] [test files…]
#   (default: the queue suites listed below; --without-e2e leaves out those of test/e2e/, which spawn processes and take
#   most of the time: CI runs the others on every change)
# Needs: redis-server and redis-cli 6 or later built with TLS, openssl, node; PostgreSQL as `npm test` needs it.
set -euo pipefail
cd "$(dirname "$0")/.."

# Every suite whose subject is queue mode: BullMQ, the run registry and its events, the dispatch gate and fairness,
# checkpoints, callbacks, cancel and retry, fan-out, the Redis rate limits, and the processes that serve them.
# Not here: the suites that start Redis servers of their own (redis-tls, redis-sentinel, redis-cluster, redis-slots);
# test/e2e/boot.test.ts, which puts credentials of its own in REDIS_URL to check that the logs hide them (the ACL user
# refuses them); and the suites whose subject is something else and that only borrow a queue deployment (the
# OpenAPI document, conformance, fuzzing, routes, the console, the production build, the Kubernetes manifests).
SUITES=(
  test/unit/queue/queue-outage.test.ts
  test/unit/inference/rate-limiter.test.ts
  test/unit/inference/sliding-window.test.ts
  test/integration/bullmq-orchestrator.test.ts
  test/integration/queue-mode.test.ts
  test/integration/queue-job-ids.test.ts
  test/integration/readiness.test.ts
  test/integration/run-lifecycle.test.ts
  test/integration/run-results.test.ts
  test/integration/run-ownership.test.ts
  test/integration/run-history.test.ts
  test/integration/run-metrics.test.ts
  test/integration/run-cost.test.ts
  test/integration/run-cancel.test.ts
  test/integration/run-retry.test.ts
  test/integration/run-stop-channel.test.ts
  test/integration/run-checkpoints.test.ts
  test/integration/run-partitions.test.ts
  test/integration/run-registry-ownership.test.ts
  test/integration/run-store-contract.test.ts
  test/integration/run-storage.test.ts
  test/integration/upload-flow.test.ts
  test/integration/fair-dispatch.test.ts
  test/integration/org-rate-shares.test.ts
  test/integration/organization-rate-share.test.ts
  test/integration/fan-out.test.ts
  test/integration/rate-limits.test.ts
  test/integration/tracing.test.ts
  test/integration/worker-concurrency.test.ts
  test/integration/worker-liveness.test.ts
  test/integration/swallowed-redis-errors.test.ts
  test/integration/embedded-database-claim.test.ts
  test/integration/admin-dashboard-auth.test.ts
  test/regressions/callback-refusal.test.ts
  test/regressions/job-ownership.test.ts
  test/regressions/mass-retake.test.ts
  test/e2e/cancellation.test.ts
  test/e2e/checkpoints.test.ts
  test/e2e/distributed.test.ts
  test/e2e/fair-dispatch.test.ts
  test/e2e/fan-out.test.ts
  test/e2e/rate-limits.test.ts
  test/e2e/run-failures.test.ts
  test/e2e/run-history-outage.test.ts
  test/e2e/shutdown.test.ts
  test/e2e/tracing.test.ts
)
if [ "${1:-}" = --without-e2e ]; then
  shift
  kept=()
  for suite in "${SUITES[@]}"; do [[ $suite == test/e2e/* ]] || kept+=("$suite"); done
  SUITES=("${kept[@]}")
fi
if [ "$#" -gt 0 ]; then SUITES=("$@"); fi

work="$(mktemp -d /tmp/queue-tls-XXXXXX)"
redis_pid=''
cleanup() {
  if [ -n "$redis_pid" ]; then
    kill "$redis_pid" 2>/dev/null || true
    wait "$redis_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

echo "== certificates (openssl): a CA, a server certificate for 127.0.0.1, a client certificate"
ssl() { openssl "$@" 2>/dev/null; }
ssl ecparam -name prime256v1 -genkey -noout -out "$work/ca.key"
ssl req -x509 -new -key "$work/ca.key" -days 1 -subj '/CN=queue suites test CA' -out "$work/ca.crt"
sign() { # name subject extensions
  ssl ecparam -name prime256v1 -genkey -noout -out "$work/$1.key"
  ssl req -new -key "$work/$1.key" -subj "$2" -out "$work/$1.csr"
  printf '%b' "$3" >"$work/$1.ext"
  ssl x509 -req -in "$work/$1.csr" -CA "$work/ca.crt" -CAkey "$work/ca.key" -CAcreateserial -days 1 \
    -extfile "$work/$1.ext" -out "$work/$1.crt"
}
sign server '/CN=redis.test' 'subjectAltName=IP:127.0.0.1,DNS:redis.test\nextendedKeyUsage=serverAuth\n'
sign client '/CN=queue suites' 'extendedKeyUsage=clientAuth\n'

port="$(node -e "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
password="$(openssl rand -hex 16)"
echo "== redis-server on 127.0.0.1:$port: TLS only, client certificate required, default user off, ACL user runner"
redis-server --bind 127.0.0.1 --port 0 --tls-port "$port" --save '' --appendonly no --dir "$work" \
  --logfile "$work/redis.log" \
  --tls-cert-file "$work/server.crt" --tls-key-file "$work/server.key" --tls-ca-cert-file "$work/ca.crt" \
  --tls-auth-clients yes \
  --user default off --user runner on ">$password" '~*' '&*' '+@all' &
redis_pid=$!

one_line() { tr -s '\r\n' '  ' | sed 's/^ *//; s/ *$//'; }
tls_cli() {
  timeout 10 redis-cli -h 127.0.0.1 -p "$port" --tls --cacert "$work/ca.crt" --cert "$work/client.crt" \
    --key "$work/client.key" "$@" 2>&1
}
runner_cli() { tls_cli --user runner --pass "$password" --no-auth-warning "$@"; }
for _ in $(seq 100); do [ "$(runner_cli ping || true)" = PONG ] && break; sleep 0.1; done
[ "$(runner_cli ping || true)" = PONG ] || { echo "the TLS Redis did not answer"; cat "$work/redis.log"; exit 1; }

echo "== refusals"
plain="$(timeout 10 redis-cli -u "redis://runner:$password@127.0.0.1:$port" --no-auth-warning ping 2>&1 | one_line || true)"
[ "$plain" != PONG ] || { echo "a plain redis:// connection was served"; exit 1; }
echo "plain redis:// with the right password: refused (${plain:-no answer})"
anonymous="$(tls_cli ping | one_line || true)"
case "$anonymous" in *NOAUTH*) echo "TLS without a user (the default user is off): refused ($anonymous)" ;;
  *) echo "a TLS connection without the ACL user was served: $anonymous"; exit 1 ;; esac
wrong="$(tls_cli --user runner --pass wrong --no-auth-warning ping | one_line || true)"
case "$wrong" in *WRONGPASS*) echo "TLS with a wrong password: refused ($wrong)" ;;
  *) echo "a wrong password was accepted: $wrong"; exit 1 ;; esac
no_certificate="$(timeout 10 redis-cli -h 127.0.0.1 -p "$port" --tls --cacert "$work/ca.crt" --user runner \
  --pass "$password" --no-auth-warning ping 2>&1 | one_line || true)"
[ "$no_certificate" != PONG ] || { echo "a TLS connection without the client certificate was served"; exit 1; }
echo "TLS without the client certificate: refused (${no_certificate:-no answer})"

echo "== ${#SUITES[@]} queue suites over rediss://runner@127.0.0.1:$port"
started=$SECONDS
status=0
TEST_REDIS_URL="rediss://runner:$password@127.0.0.1:$port" \
  TEST_REDIS_TLS_CA_FILE="$work/ca.crt" \
  TEST_REDIS_TLS_CERT_FILE="$work/client.crt" \
  TEST_REDIS_TLS_KEY_FILE="$work/client.key" \
  npx mocha --reporter dot "${SUITES[@]}" || status=$?
served="$(runner_cli info stats | tr -d '\r' | sed -n 's/^total_commands_processed://p')"
echo "== ${#SUITES[@]} suites in $((SECONDS - started)) s; the TLS Redis served ${served:-?} commands; mocha exit $status"
exit "$status"
