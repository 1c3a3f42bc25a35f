#!/usr/bin/env bash
# deploy-check: the topology of docs/deploy/compose.yaml and kubernetes.yaml,
# run for real in containers of the image `make image` built (IMAGE, default
# jaiph-go:dev): one `jaiph broker`, two `jaiph serve --inbox` replicas and
# three `jaiph worker`s. Every container uses the host's network (the CI
# daemon has no bridge: dockerd --iptables=false --bridge=none) on a loopback
# port of its own that the kernel picks (--listen 127.0.0.1:0, --port 0), and
# runs as the image's user 65532 with a read-only root file system, as the
# Kubernetes manifest has it: the broker writes only its store (a named
# volume at /data, as in the compose file), the replicas and workers only
# tmpfs mounts at /work, /tmp and (workers: the key store) /home/nonroot.
#
# It checks: both replicas answer /healthz; a request without the token is
# 401; a run of docs/deploy/tools.jh's greet through each replica succeeds
# with the expected result_text, was run by one of the workers and its
# records verify; the run started on replica 1 reads the same through
# replica 2, and so does the file it published. Any failure prints what
# went wrong and the containers' logs, and exits 1; every container and the
# volume are removed on exit, failure or not. Every wait is bounded
# (DEPLOY_CHECK_TIMEOUT seconds, default 60).
#
# DEPLOY_CHECK_CLIENT_TOKEN makes the client send another token than the
# replicas hold (to see the check fail: DEPLOY_CHECK_CLIENT_TOKEN=wrong).
set -euo pipefail
cd "$(dirname "$0")/.."

IMAGE=${IMAGE:-jaiph-go:dev}
TIMEOUT=${DEPLOY_CHECK_TIMEOUT:-60}
FLOW=docs/deploy/tools.jh
WORKERS=3
REPLICAS=2

start=$SECONDS
ms() { local t=${EPOCHREALTIME/[.,]/}; echo $((t / 1000)); }
say() { printf 'deploy-check [%3ds]: %s\n' "$((SECONDS - start))" "$*"; }

# The containers and the volume this run made, removed on exit.
prefix="jaiph-deploy-check-$$"
cids=()
names=()
volume=""
tmp=$(mktemp -d)
failed=""

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  if [ "$status" -ne 0 ] || [ -n "$failed" ]; then
    local i
    for i in "${!cids[@]}"; do
      echo "----- logs of ${names[$i]} -----" >&2
      docker logs --tail 200 "${cids[$i]}" >&2 2>&1 || true
    done
    [ "${#cids[@]}" -eq 0 ] || echo "----- end of logs -----" >&2
  fi
  # The recorded containers, and any this run's label names that an
  # interrupt left unrecorded (its docker run had not returned yet).
  local all
  mapfile -t all < <({ printf '%s\n' "${cids[@]}"; docker ps -aq --no-trunc --filter "label=jaiph.deploy-check=$$" 2>/dev/null; } | sort -u | grep .)
  if [ "${#all[@]}" -gt 0 ]; then
    docker rm -f -v "${all[@]}" >/dev/null 2>&1 || echo "deploy-check: could not remove containers ${all[*]}" >&2
  fi
  if [ -n "$volume" ]; then
    docker volume rm "$volume" >/dev/null 2>&1 || echo "deploy-check: could not remove volume $volume" >&2
  fi
  rm -rf "$tmp"
  if [ "$status" -eq 0 ]; then
    say "ok: removed ${#all[@]} containers"
  else
    echo "deploy-check: FAILED (status $status) after $((SECONDS - start)) s; removed ${#all[@]} containers" >&2
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fail() {
  failed=1
  echo "deploy-check: FAIL: $*" >&2
  exit 1
}

command -v docker >/dev/null 2>&1 || fail "no docker command"
command -v curl >/dev/null 2>&1 || fail "no curl command"
docker info >/dev/null 2>&1 || fail "no Docker daemon answers (docker info)"
docker image inspect "$IMAGE" >/dev/null 2>&1 || fail "no image $IMAGE: build it with make image"

# The replicas' token, passed to docker run through the environment (not
# its command line), and the one the client sends (curl reads the header
# from a file, not its command line).
token=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
client_token=${DEPLOY_CHECK_CLIENT_TOKEN:-$token}
printf 'Authorization: Bearer %s\n' "$client_token" >"$tmp/auth"
chmod 600 "$tmp/auth"
# The served file, readable by user 65532 whatever the clone's umask.
mkdir -p "$tmp/flows"
cp "$FLOW" "$tmp/flows/tools.jh"
chmod 755 "$tmp/flows"
chmod 644 "$tmp/flows/tools.jh"

# run NAME ARGS...: docker run -d as the image's user, read-only, on the
# host's network; records the container for the logs and the cleanup.
run() {
  local name=$1 cid
  shift
  cid=$(docker run -d --name "$prefix-$name" --label "jaiph.deploy-check=$$" \
    --network host --read-only --stop-timeout 5 "$@") || fail "docker run $name failed"
  cids+=("$cid")
  names+=("$name")
}

# logline NAME PATTERN: waits (bounded) for PATTERN (an ERE) in the
# container's log and prints the first match; fails if the container exits first.
logline() {
  local name=$1 pattern=$2 cid="" i m
  for i in "${!names[@]}"; do [ "${names[$i]}" = "$name" ] && cid=${cids[$i]}; done
  local end=$((SECONDS + TIMEOUT))
  while [ "$SECONDS" -lt "$end" ]; do
    if m=$(docker logs "$cid" 2>&1) && [[ $m =~ $pattern ]]; then
      printf '%s\n' "${BASH_REMATCH[0]}"
      return 0
    fi
    if [ "$(docker inspect -f '{{.State.Running}}' "$cid" 2>/dev/null)" != true ]; then
      fail "$name exited before it was ready (status $(docker inspect -f '{{.State.ExitCode}}' "$cid" 2>/dev/null))"
    fi
    sleep 0.2
  done
  fail "$name did not log /$pattern/ within $TIMEOUT s"
}

# http METHOD URL [BODY]: sets code and body (bounded by TIMEOUT).
http() {
  local method=$1 url=$2 data=${3:-}
  local args=(-sS -o "$tmp/body" -w '%{http_code}' --max-time "$TIMEOUT" -X "$method" -H @"$tmp/auth")
  [ -z "$data" ] || args+=(-H 'Content-Type: application/json' --data "$data")
  code=$(curl "${args[@]}" "$url" 2>"$tmp/curl.err") || code="curl failed: $(cat "$tmp/curl.err")"
  body=$(cat "$tmp/body" 2>/dev/null || true)
}

# field NAME: the string field NAME of the JSON object in $body (Go writes
# it compact; the values checked hold no quotes).
field() {
  sed -n "s/.*\"$1\":\"\\([^\"]*\\)\".*/\\1/p" <<<"$body"
}

say "image $IMAGE ($(docker run --rm --network host "$IMAGE" --version))"

# The broker: its store on a named volume at /data (the image's /data is
# the user's, and a new volume takes its owner), as in compose.yaml.
volume="$prefix-data"
docker volume create --label "jaiph.deploy-check=$$" "$volume" >/dev/null || fail "docker volume create failed"
run broker -v "$volume:/data" "$IMAGE" broker --listen 127.0.0.1:0 --store /data
inbox=$(logline broker 'nats://127\.0\.0\.1:[0-9]+')
say "broker on $inbox"

for r in $(seq 1 "$REPLICAS"); do
  JAIPH_SERVE_TOKEN=$token run "serve$r" -e JAIPH_SERVE_TOKEN \
    --tmpfs /work:uid=65532,gid=65532 --tmpfs /tmp:mode=1777 \
    -v "$tmp/flows/tools.jh:/flows/tools.jh:ro" \
    "$IMAGE" serve --host 127.0.0.1 --port 0 --inbox "$inbox" /flows/tools.jh
done
for w in $(seq 1 "$WORKERS"); do
  run "worker$w" --tmpfs /work:uid=65532,gid=65532 --tmpfs /home/nonroot:uid=65532,gid=65532 --tmpfs /tmp:mode=1777 \
    "$IMAGE" worker --inbox "$inbox" --name "w$w" --dir /work
done

bases=()
for r in $(seq 1 "$REPLICAS"); do
  base=$(logline "serve$r" 'http://127\.0\.0\.1:[0-9]+')
  bases+=("$base")
done
say "replicas on ${bases[*]}"
[ "${bases[0]}" != "${bases[1]}" ] || fail "both replicas report ${bases[0]}"
for w in $(seq 1 "$WORKERS"); do
  logline "worker$w" "worker w$w: serving" >/dev/null
done
say "$WORKERS workers serving"

# Readiness as the probes see it: GET /healthz, no authentication.
for base in "${bases[@]}"; do
  end=$((SECONDS + TIMEOUT))
  until out=$(curl -sf --max-time 2 "$base/healthz" 2>/dev/null) && [[ $out == *'"status":"ok"'* ]]; do
    [ "$SECONDS" -lt "$end" ] || fail "$base/healthz did not answer ok within $TIMEOUT s (last: ${out:-nothing})"
    sleep 0.2
  done
  [[ $out == *'"workflows":1'* ]] || fail "$base/healthz: want one workflow, got $out"
done
say "both replicas healthy: $out"

code=$(curl -sS -o /dev/null -w '%{http_code}' --max-time "$TIMEOUT" -X POST -H 'Content-Type: application/json' \
  --data '{}' "${bases[0]}/v1/workflows/greet/runs") || true
[ "$code" = 401 ] || fail "a run without the token: want 401, got $code"
say "a request without the token is 401"

# A run through each replica, waited for.
ids=()
for r in $(seq 1 "$REPLICAS"); do
  base=${bases[$((r - 1))]}
  want="Hello, replica-$r!"
  t0=$(ms)
  http POST "$base/v1/workflows/greet/runs?wait=true" "{\"name\":\"replica-$r\"}"
  [ "$code" = 200 ] || fail "replica $r: POST /v1/workflows/greet/runs?wait=true answered $code: $body"
  [ "$(field status)" = succeeded ] || fail "replica $r: the run did not succeed: $body"
  [ "$(field result_text)" = "$want" ] || fail "replica $r: result_text: want \"$want\": $body"
  worker=$(field worker)
  [[ $worker =~ ^w[1-$WORKERS]$ ]] || fail "replica $r: the run names no worker of ours ($worker): $body"
  [[ $(field integrity) == sealed:* ]] || fail "replica $r: the run's records do not verify: $body"
  id=$(field run_id)
  [ -n "$id" ] || fail "replica $r: no run_id: $body"
  ids+=("$id")
  say "replica $r: run $id succeeded on worker $worker in $(($(ms) - t0)) ms: \"$want\" ($(field integrity))"
done

# The run of replica 1, read through replica 2.
http GET "${bases[1]}/v1/runs/${ids[0]}"
[ "$code" = 200 ] || fail "replica 2: GET /v1/runs/${ids[0]} answered $code: $body"
[ "$(field run_id)" = "${ids[0]}" ] && [ "$(field status)" = succeeded ] && [ "$(field result_text)" = "Hello, replica-1!" ] ||
  fail "replica 2 reads replica 1's run otherwise: $body"
http GET "${bases[1]}/v1/runs/${ids[0]}/artifacts/greeting.txt"
[ "$code" = 200 ] && [ "$body" = "Hello, replica-1!" ] || fail "replica 2: the run's greeting.txt: $code: $body"
say "replica 2 reads replica 1's run ${ids[0]} and its greeting.txt"
