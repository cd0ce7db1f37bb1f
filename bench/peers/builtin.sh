#!/usr/bin/env bash
# bench/peers/builtin.sh: time `kdv validate` against kubeconform on 10,000
# built-in objects (Deployments, Services, ConfigMaps, Pods; issue #11,
# "Speed"), with kubeconform given JSON schemas made from the same
# Kubernetes OpenAPI kdv embeds; check that both report every document
# valid; list what each catches on a few probes; and write the figures into
# bench/peers/RESULTS.md (between the BUILTIN GENERATED markers; text outside
# them, run.sh's block included, is kept).
#
# Not run by CI: run it by hand on an idle machine, from anywhere (under 2
# minutes once kubeconform is installed):
#   bash bench/peers/builtin.sh
# Knobs (environment): JOBS (parallelism given to kdv -j and kubeconform -n;
# default nproc), RUNS (hyperfine runs per command; default 5), MINOR (the
# Kubernetes minor version: kdv --kubernetes-version 1.MINOR, kubeconform
# -kubernetes-version 1.MINOR.0; default 37, kdv's default), RESULTS (output
# file; default bench/peers/RESULTS.md), CORPUS (the Kubernetes examples, the
# seed objects; default ../shared/corpus/kubernetes-examples beside the
# repository), KEEP=1 (keep the work directory with the inputs, schemas and
# tool outputs; its path is logged).
#
# Inputs (bench/peers/genbuiltin): every object of a built-in API group in
# the examples is a seed; each seed is first validated alone by both
# tools, and the seeds either rejects are left out (and listed in the
# results, with both verdicts). Document i is a copy of a seed of kind
# i%4 (Deployment, Service, ConfigMap, Pod) with its name, labels, image
# tags, ports (and ConfigMap data) varied by i. Inputs: (a) 10,000
# documents in one file, (b) the same in 1,000 files of 10, (a1k) the
# first 1,000 in one file, (1) the first alone, and (m) 10,000 documents
# of every seed kind (issue 13's mixed kinds), document i a copy of seed
# i, so that kinds come in the examples' proportions.
# kubeconform's schemas (bench/peers/kcschemas) are every kind's schema from
# kdv.dev/builtin converted as openapi2jsonschema --kubernetes --strict
# does; kubeconform runs with -strict (unknown fields are errors, as in kdv).
#
# Needs: go (GOTOOLCHAIN=local), python3 (standard library only), hyperfine
# (Debian hyperfine; installed with apt-get when missing and run as root,
# else a plain timing loop is used). Network: only the Go module proxy
# (kubeconform) and Debian's archive (hyperfine).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
export GOTOOLCHAIN=local
export GOFLAGS="${GOFLAGS:-} -buildvcs=false"

KUBECONFORM_VERSION=v0.8.0 # as run.sh

JOBS=${JOBS:-$(nproc)}
RUNS=${RUNS:-5}
MINOR=${MINOR:-37}
RESULTS=${RESULTS:-$HERE/RESULTS.md}
CORPUS=${CORPUS:-$ROOT/../shared/corpus/kubernetes-examples}
BIN=$HERE/bin

[ -d "$CORPUS" ] || { echo "builtin.sh: Kubernetes examples not found at $CORPUS (set CORPUS)" >&2; exit 2; }
CORPUS=$(cd "$CORPUS" && pwd)

WORK=$(mktemp -d "${TMPDIR:-/tmp}/kdv-builtin.XXXXXX")
# kdv's compile cache (checked CEL rules, cel.SetCompileCacheDir) in the work
# directory: the warm-up run fills it, the timed runs read it; the start-up
# row also times kdv without it (KDV_CACHE_DIR=off), a first run's cost.
export KDV_CACHE_DIR="$WORK/kdv-cache"
trap '[ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
START=$(date +%s)
log() { printf '[%4ss] %s\n' "$(($(date +%s) - START))" "$*" >&2; }
[ -z "${KEEP:-}" ] || log "work directory (kept): $WORK"

# ---------------------------------------------------------------- tools
mkdir -p "$BIN"
log "building kdv and the helpers"
(cd "$ROOT" && go build -tags kustomize_disable_go_plugin_support -o "$BIN/kdv" ./cmd/kdv)
(cd "$ROOT/bench" && go build -o "$BIN/genbuiltin" ./peers/genbuiltin && go build -o "$BIN/kcschemas" ./peers/kcschemas)
KDV=$BIN/kdv
KC=$BIN/kubeconform-$KUBECONFORM_VERSION/kubeconform
if [ ! -x "$KC" ]; then
  log "installing kubeconform $KUBECONFORM_VERSION"
  GOBIN=$(dirname "$KC") go install "github.com/yannh/kubeconform/cmd/kubeconform@$KUBECONFORM_VERSION"
fi
HYPERFINE=$(command -v hyperfine || true)
if [ -z "$HYPERFINE" ] && [ "$(id -u)" = 0 ]; then
  log "installing hyperfine"
  { apt-get install -y -qq hyperfine || { apt-get update -qq && apt-get install -y -qq hyperfine; }; } >/dev/null 2>&1 || true
  HYPERFINE=$(command -v hyperfine || true)
fi
[ -n "$HYPERFINE" ] || log "hyperfine unavailable: using a plain timing loop"

# ---------------------------------------------------------------- schemas
log "writing kubeconform's schemas from kdv's built-in data (Kubernetes 1.$MINOR)"
KC_SCHEMAS=$WORK/kc-schemas
"$BIN/kcschemas" -minor "$MINOR" -kinds all -out "$KC_SCHEMAS" >/dev/null

# The exact commands (INPUT is replaced per input).
CMD_KDV="$KDV validate --kubernetes-version 1.$MINOR -j $JOBS INPUT"
CMD_KC="$KC -strict -summary -n $JOBS -kubernetes-version 1.$MINOR.0 -schema-location $KC_SCHEMAS INPUT"
cmd_for() { local c=$1 in=$2; printf '%s' "${c//INPUT/$in}"; }

# ---------------------------------------------------------------- seeds
# Each seed alone, through both tools; per-file verdicts from their JSON
# output (kubeconform lists only the resources that are not valid, and
# takes flags only before its arguments).
log "checking the seeds"
"$BIN/genbuiltin" -seeds "$CORPUS" -seed-dir "$WORK/seeds" >"$WORK/seeds.txt" 2>"$WORK/seeds.err"
eval "$(cmd_for "$CMD_KDV" "-o json $WORK/seeds")" >"$WORK/seeds-kdv.json" 2>/dev/null || true
eval "$(cmd_for "$CMD_KC" "-output json $WORK/seeds")" >"$WORK/seeds-kc.json" 2>/dev/null || true
SEEDS=$WORK/seeds.md
python3 - "$WORK" >"$SEEDS" <<'EOF'
import json, os, sys
w = sys.argv[1]
seeds = [l.split(" ", 2) for l in open(os.path.join(w, "seeds.txt")).read().splitlines()]
kdv = json.load(open(os.path.join(w, "seeds-kdv.json")))
kdv = {os.path.basename(k): v for k, v in kdv.items()}
kc = {}
for r in json.load(open(os.path.join(w, "seeds-kc.json"))).get("resources") or []:
    errs = r.get("validationErrors") or []
    msg = "; ".join("%s: %s" % (e["path"], e["msg"]) for e in errs) or r.get("msg", "")
    kc[os.path.basename(r["filename"])] = "%s: %s" % (r.get("status", "?").replace("status", ""), msg)
def short(s, n=160):
    s = s.replace("|", "\\|").replace("\n", " ")
    return s if len(s) <= n else s[:n] + "…"
excluded, rows = [], []
for f, sid, what in seeds:
    statuses = kdv.get(f)
    if statuses is None:
        k = "no verdict"
    else:
        bad = [s for s in statuses if s.get("status") != "Success"]
        k = "; ".join("%s %s" % (s.get("code", ""), s.get("message", "")) for s in bad) if bad else ""
    c = kc.get(f, "")
    if k or c:
        excluded.append(sid)
        agree = "both reject" if k and c else ("**kdv only**" if k else "**kubeconform only**")
        rows.append("| `%s` | %s | %s | %s | %s |" % (sid, what, agree,
                    short(k) if k else "valid", short(c) if c else "valid"))
print("%d seeds; %d rejected by either tool, left out of the inputs:" % (len(seeds), len(excluded)))
print()
print("| seed (path#document) | object | verdict | kdv | kubeconform -strict |")
print("|---|---|---|---|---|")
print("\n".join(rows) if rows else "| (none) | | | | |")
open(os.path.join(w, "exclude.txt"), "w").write(",".join(excluded))
EOF
EXCLUDE=$(cat "$WORK/exclude.txt")

# ---------------------------------------------------------------- inputs
log "generating inputs"
"$BIN/genbuiltin" -seeds "$CORPUS" -exclude "$EXCLUDE" -out "$WORK/full" -docs 10000 -files 1000 -per-file 10 \
  >"$WORK/genbuiltin.txt" 2>/dev/null
"$BIN/genbuiltin" -seeds "$CORPUS" -exclude "$EXCLUDE" -out "$WORK/small" -docs 1000 -files 0 >/dev/null 2>&1
"$BIN/genbuiltin" -seeds "$CORPUS" -exclude "$EXCLUDE" -out "$WORK/one" -docs 1 -files 0 >/dev/null 2>&1
"$BIN/genbuiltin" -seeds "$CORPUS" -exclude "$EXCLUDE" -out "$WORK/mixed" -docs 10000 -files 0 -mixed \
  >>"$WORK/genbuiltin.txt" 2>/dev/null
A=$WORK/full/one-file.yaml
M=$WORK/mixed/one-file.yaml
B=$WORK/full/many-files
A1K=$WORK/small/one-file.yaml
ONE=$WORK/one/one-file.yaml

# ---------------------------------------------------------------- same work?
log "checking verdicts"
VERDICTS=$WORK/verdicts.md
{
  echo "| input | tool | exit | summary |"
  echo "|---|---|---|---|"
} >"$VERDICTS"
verdict() { # label input tool
  local label=$1 in=$2 tool=$3 out=$WORK/verdict.out rc=0 summary
  case $tool in
  kdv)
    eval "$(cmd_for "$CMD_KDV" "$in")" >"$out" 2>&1 || rc=$?
    summary=$(tail -n 1 "$out")
    ;;
  kubeconform)
    eval "$(cmd_for "$CMD_KC" "$in")" >"$out" 2>&1 || rc=$?
    summary=$(grep '^Summary:' "$out" || tail -n 1 "$out")
    ;;
  esac
  printf '| %s | %s | %s | %s |\n' "$label" "$tool" "$rc" "$summary" >>"$VERDICTS"
  if [ "$rc" != 0 ]; then
    log "$tool on $label exited $rc:"; head -n 20 "$out" >&2
  fi
}
for t in kdv kubeconform; do
  verdict "(a) 10,000 docs, 1 file" "$A" $t
  verdict "(m) 10,000 docs of mixed kinds, 1 file" "$M" $t
  verdict "(b) 1,000 files x 10 docs" "$B" $t
  verdict "(a1k) 1,000 docs, 1 file" "$A1K" $t
  verdict "(1) 1 doc" "$ONE" $t
done

# ---------------------------------------------------------------- probes
# What each tool catches: one object per file, each a variation of one
# valid Deployment (or Service); "expected" is the apiserver's verdict.
log "checking what each tool catches"
P=$WORK/probes
mkdir -p "$P"
deploy() { # name extra-container-lines [spec-lines] [selector-app]
  cat <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: $1
spec:
${3:-  replicas: 3}
  selector:
    matchLabels: {app: ${4:-web}}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        ports:
        - containerPort: ${5:-80}
$2
EOF
}
deploy valid-deployment "" >"$P/0-valid.yaml"
deploy replicas-string "" '  replicas: "3"' >"$P/1-replicas-string.yaml"
deploy bad-quantity '        resources: {requests: {cpu: "1.5.5"}}' >"$P/2-bad-quantity.yaml"
cat >"$P/3-service-type.yaml" <<'EOF'
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  type: Bogus
  selector: {app: web}
  ports:
  - port: 80
EOF
deploy duplicate-env '        env: [{name: A, value: "1"}, {name: A, value: "2"}]' >"$P/4-duplicate-env.yaml"
deploy empty-pull-policy '        imagePullPolicy: ""' >"$P/5-empty-pull-policy.yaml"
deploy unknown-field "" $'  replicas: 3\n  replica: 3' >"$P/6-unknown-field.yaml"
deploy Bad_Name "" >"$P/7-metadata-name.yaml"
deploy selector-mismatch "" "" other >"$P/8-selector-mismatch.yaml"
deploy port-range "" "" web 70000 >"$P/9-port-range.yaml"
CATCHES=$WORK/catches.md
{
  echo "| object (one per file) | expected (apiserver) | kdv | kubeconform -strict |"
  echo "|---|---|---|---|"
} >"$CATCHES"
verdict_of() { # command -> "valid" / "INVALID" / "exit N"
  local rc=0
  eval "$1" >/dev/null 2>&1 || rc=$?
  case $rc in 0) echo valid ;; 1) echo INVALID ;; *) echo "exit $rc" ;; esac
}
for f in "$P"/*.yaml; do
  name=$(basename "$f" .yaml)
  case $name in
  0-*) what="a valid Deployment (the base of probes 1, 2, 4-9): valid" ;;
  1-*) what='Deployment `replicas: "3"`: invalid (400, cannot decode a string into int32)' ;;
  2-*) what='container `cpu: "1.5.5"`: invalid (400, not a quantity)' ;;
  3-*) what='Service `type: Bogus`: invalid (unsupported value)' ;;
  4-*) what='two env entries named A: valid (the apiserver warns at most)' ;;
  5-*) what='`imagePullPolicy: ""`: valid (empty is unset, then defaulted)' ;;
  6-*) what='unknown field `spec.replica`: invalid (strict field validation)' ;;
  7-*) what='metadata.name `Bad_Name`: invalid (not a DNS subdomain)' ;;
  8-*) what="selector app=other, template labels app=web: invalid (hand-written ValidateDeploymentSpec)" ;;
  9-*) what="containerPort 70000: invalid (hand-written ValidateContainerPorts)" ;;
  esac
  printf '| %s | %s | %s | %s |\n' "$name" "$what" \
    "$(verdict_of "$(cmd_for "$CMD_KDV" "$f")")" \
    "$(verdict_of "$(cmd_for "$CMD_KC" "$f")")" >>"$CATCHES"
done

# ---------------------------------------------------------------- timing
# Each group writes hyperfine's JSON (or the loop's, in the same shape).
timeit() { # json-out runs warmup name cmd [name cmd]...
  local json=$1 runs=$2 warmup=$3
  shift 3
  if [ -n "$HYPERFINE" ]; then
    local args=()
    while [ $# -gt 0 ]; do args+=(-n "$1" "$2"); shift 2; done
    "$HYPERFINE" --style basic --warmup "$warmup" --runs "$runs" \
      --export-json "$json" "${args[@]}" >&2
    return
  fi
  local first=1
  echo '{"results": [' >"$json"
  while [ $# -gt 0 ]; do
    local name=$1 cmd=$2 i
    shift 2
    for ((i = 0; i < warmup; i++)); do eval "$cmd" >/dev/null 2>&1; done
    : >"$WORK/loop.times"
    for ((i = 0; i < runs; i++)); do
      TIMEFORMAT='%R %U %S'
      { time eval "$cmd" >/dev/null 2>&1; } 2>>"$WORK/loop.times"
    done
    [ $first = 1 ] || echo , >>"$json"
    first=0
    python3 - "$name" "$WORK/loop.times" >>"$json" <<'EOF'
import json, statistics, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[2]) if l.strip()]
real = [r[0] for r in rows]
print(json.dumps({"command": sys.argv[1], "mean": statistics.mean(real),
    "stddev": statistics.stdev(real) if len(real) > 1 else 0.0,
    "min": min(real), "max": max(real), "times": real,
    "user": statistics.mean(r[1] for r in rows), "system": statistics.mean(r[2] for r in rows)}))
EOF
  done
  echo ']}' >>"$json"
}

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
log "timing (a) 10,000 documents in one file"
timeit "$WORK/t-a.json" "$RUNS" 1 kdv "$(cmd_for "$CMD_KDV" "$A")" kubeconform "$(cmd_for "$CMD_KC" "$A")"
log "timing (m) 10,000 documents of mixed kinds in one file"
timeit "$WORK/t-m.json" "$RUNS" 1 kdv "$(cmd_for "$CMD_KDV" "$M")" kubeconform "$(cmd_for "$CMD_KC" "$M")"
log "timing (b) 1,000 files of 10 documents"
timeit "$WORK/t-b.json" "$RUNS" 1 kdv "$(cmd_for "$CMD_KDV" "$B")" kubeconform "$(cmd_for "$CMD_KC" "$B")"
log "timing (a1k) 1,000 documents in one file"
timeit "$WORK/t-a1k.json" "$RUNS" 1 kdv "$(cmd_for "$CMD_KDV" "$A1K")" kubeconform "$(cmd_for "$CMD_KC" "$A1K")"
log "timing (1) one document: start-up cost"
timeit "$WORK/t-one.json" "$RUNS" 1 kdv "$(cmd_for "$CMD_KDV" "$ONE")" kubeconform "$(cmd_for "$CMD_KC" "$ONE")" \
  "kdv, no compile cache (first run)" "env KDV_CACHE_DIR=off $(cmd_for "$CMD_KDV" "$ONE")"
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)

TIMES=$WORK/times.md
python3 - "$WORK" >"$TIMES" <<'EOF'
import json, os, sys
w = sys.argv[1]
groups = [("(a) 10,000 docs, 1 file", 10000, "t-a.json"),
          ("(m) 10,000 docs of mixed kinds, 1 file", 10000, "t-m.json"),
          ("(b) 1,000 files x 10 docs", 10000, "t-b.json"),
          ("(a1k) 1,000 docs, 1 file", 1000, "t-a1k.json"),
          ("(1) 1 doc: start-up", 1, "t-one.json")]
print("| input | tool | runs | wall mean ± σ [s] | min … max [s] | CPU user+sys [s] | docs/s (wall) |")
print("|---|---|---|---|---|---|---|")
ratios = []
for label, docs, f in groups:
    rows = json.load(open(os.path.join(w, f)))["results"]
    by = {r["command"]: r for r in rows}
    for r in rows:
        n = len(r.get("times") or []) or 1
        print("| %s | %s | %d | %.3f ± %.3f | %.3f … %.3f | %.2f | %.0f |" % (
            label, r["command"], n, r["mean"], r.get("stddev") or 0.0, r["min"], r["max"],
            r["user"] + r["system"], docs / r["mean"]))
    k, c = by.get("kdv"), by.get("kubeconform")
    if k and c:
        ratios.append("| %s | %.2f× | %.2f× | %.2f× |" % (label, c["mean"] / k["mean"], c["min"] / k["min"],
                      (c["user"] + c["system"]) / (k["user"] + k["system"])))
print()
print("kubeconform ÷ kdv (above 1: kdv is faster; the goal is 2× or more):")
print()
print("| input | wall (means) | wall (best runs) | CPU user+sys |")
print("|---|---|---|---|")
print("\n".join(ratios))
EOF

# ---------------------------------------------------------------- results
log "writing $RESULTS"
GEN=$WORK/generated.md
{
  echo "<!-- BEGIN BUILTIN GENERATED by bench/peers/builtin.sh: do not edit by hand -->"
  echo "## Built-in kinds: kdv vs kubeconform (bench/peers/builtin.sh), run of $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo
  echo "- Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(free -g | awk '/^Mem:/ {print $2}') GiB;" \
    "load average $LOAD_BEFORE before timing, $LOAD_AFTER after$(awk -v n="$(nproc)" '{ if ($1 > n) printf " (**loaded**: more runnable work than CPUs, so wall times are inflated; CPU times suffer less)" }' /proc/loadavg)."
  echo "- $(go version); kdv $(cd "$ROOT" && git rev-parse --short HEAD 2>/dev/null || echo '?')$(cd "$ROOT" && git diff --quiet HEAD -- . 2>/dev/null || echo ' (+ uncommitted changes)');" \
    "kubeconform $KUBECONFORM_VERSION; $( [ -n "$HYPERFINE" ] && "$HYPERFINE" --version || echo 'timing loop (no hyperfine)'), --warmup 1 --runs $RUNS; JOBS=$JOBS."
  echo "- Inputs: $(sed 's/^genbuiltin: //' "$WORK/genbuiltin.txt") (bench/peers/genbuiltin: seeds from the Kubernetes" \
    "examples, document i a copy of a seed of kind i%4 with name, labels, image tags, ports and ConfigMap data varied by i)." \
    "(a1k) is the first 1,000 of those documents, (1) the first (a Deployment)."
  echo "- Schemas: kdv uses its embedded Kubernetes 1.$MINOR schemas; kubeconform gets the same schemas written by" \
    "bench/peers/kcschemas (each kind fully resolved; IntOrString as oneOf string/integer, Quantity as oneOf" \
    "string/number, optional fields nullable, x- extensions dropped, additionalProperties: false on every object" \
    "with properties) in kubeconform's layout (v1.$MINOR.0-standalone-strict/deployment-apps-v1.json, ...)." \
    "Repeated enum values are removed: Service spec.externalTrafficPolicy is [Cluster, Cluster, Local, Local]" \
    "in the OpenAPI (two Go constants per value), JSON schema requires unique enum items, and kubeconform" \
    "silently treats a schema that does not compile as missing (every Service: \"could not find schema\")."
  echo
  echo "Commands (INPUT = the input file or directory):"
  echo
  echo '```'
  echo "${CMD_KDV//$ROOT\//}"
  echo "${CMD_KC//$ROOT\//}" | sed "s#$WORK#\$WORK#g"
  echo '```'
  echo
  echo "### Timing"
  echo
  cat "$TIMES"
  echo
  echo "### Same work: verdicts"
  echo
  cat "$VERDICTS"
  echo
  echo "### Seeds"
  echo
  cat "$SEEDS"
  echo
  sed "s#$CORPUS#the Kubernetes examples#" "$WORK/seeds.err"
  echo
  echo "### What each tool catches"
  echo
  cat "$CATCHES"
  echo "<!-- END BUILTIN GENERATED -->"
} >"$GEN"
python3 - "$RESULTS" "$GEN" <<'EOF'
import os, sys
path, gen = sys.argv[1], open(sys.argv[2]).read().rstrip("\n")
begin, end = "<!-- BEGIN BUILTIN GENERATED", "<!-- END BUILTIN GENERATED -->"
old = open(path).read() if os.path.exists(path) else ""
i, j = old.find(begin), old.find(end)
new = old[:i] + gen + old[j + len(end):] if i >= 0 and j > i else old.rstrip("\n") + "\n\n" + gen + "\n"
open(path, "w").write(new)
EOF
cat "$TIMES"
log "done in $(($(date +%s) - START)) s; results in $RESULTS"
