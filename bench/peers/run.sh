#!/usr/bin/env bash
# bench/peers/run.sh: time `kdv validate` against kubeconform and
# kubectl-validate on the same Gateway API objects (issue #7), check that all
# three report every document valid, profile kdv, and write the figures into
# bench/peers/RESULTS.md (between the GENERATED markers; text outside them is
# kept).
#
# Not run by CI: run it by hand on an idle machine, from anywhere:
#   bash bench/peers/run.sh
# Knobs (environment): JOBS (parallelism given to kdv -j and kubeconform -n;
# default nproc), RUNS (hyperfine runs for kdv and kubeconform; default 5),
# KV_RUNS (runs for kubectl-validate; default 1), KV_FULL=1 (also time
# kubectl-validate on the 10,000-document inputs: ~10 CPU-minutes each),
# RESULTS (output file; default bench/peers/RESULTS.md), CORPUS (the Gateway
# API corpus; default ../shared/corpus/gateway-api beside the repository).
#
# Needs: go (GOTOOLCHAIN=local), python3 with PyYAML (Debian python3-yaml;
# installed with apt-get when missing and run as root), hyperfine (Debian
# hyperfine; installed likewise, else a plain timing loop is used). Network:
# only the Go module proxy (peers) and Debian's archive (hyperfine, PyYAML).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
export GOTOOLCHAIN=local
export GOFLAGS="${GOFLAGS:-} -buildvcs=false"

KUBECONFORM_VERSION=v0.8.0      # newest tag; its go.mod says go 1.26
KUBECTL_VALIDATE_VERSION=v0.0.4 # newest tag; builds with Go 1.26
KV_KUBERNETES_VERSION=1.30      # kubectl-validate v0.0.4's default and newest built-in set

JOBS=${JOBS:-$(nproc)}
RUNS=${RUNS:-5}
KV_RUNS=${KV_RUNS:-1}
KV_FULL=${KV_FULL:-0}
RESULTS=${RESULTS:-$HERE/RESULTS.md}
CORPUS=${CORPUS:-$ROOT/../shared/corpus/gateway-api}
CRDS=$CORPUS/config/crd/experimental
EXAMPLES=$CORPUS/examples
BIN=$HERE/bin

[ -d "$CRDS" ] && [ -d "$EXAMPLES" ] || { echo "run.sh: Gateway API corpus not found at $CORPUS (set CORPUS)" >&2; exit 2; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/kdv-peers.XXXXXX")
# kdv's compile cache (checked CEL rules, cel.SetCompileCacheDir) in the work
# directory: the warm-up run fills it, the timed runs read it; the start-up
# row also times kdv without it (KDV_CACHE_DIR=off), a first run's cost.
export KDV_CACHE_DIR="$WORK/kdv-cache"
trap 'rm -rf "$WORK"' EXIT
START=$(date +%s)
log() { printf '[%4ss] %s\n' "$(($(date +%s) - START))" "$*" >&2; }

# ---------------------------------------------------------------- tools
mkdir -p "$BIN"
log "building kdv and the helpers"
(cd "$ROOT" && go build -tags kustomize_disable_go_plugin_support -o "$BIN/kdv" ./cmd/kdv)
(cd "$ROOT/bench" && go build -o "$BIN/geninput" ./peers/geninput && go build -o "$BIN/profile" ./peers/profile)
KDV=$BIN/kdv

# Each peer goes to its own versioned directory, so a pin change reinstalls.
KC=$BIN/kubeconform-$KUBECONFORM_VERSION/kubeconform
KV=$BIN/kubectl-validate-$KUBECTL_VALIDATE_VERSION/kubectl-validate
if [ ! -x "$KC" ]; then
  log "installing kubeconform $KUBECONFORM_VERSION"
  GOBIN=$(dirname "$KC") go install "github.com/yannh/kubeconform/cmd/kubeconform@$KUBECONFORM_VERSION"
fi
if [ ! -x "$KV" ]; then
  log "installing kubectl-validate $KUBECTL_VALIDATE_VERSION (large: several minutes on 2 cores)"
  GOBIN=$(dirname "$KV") go install "sigs.k8s.io/kubectl-validate@$KUBECTL_VALIDATE_VERSION"
fi

apt_install() {
  [ "$(id -u)" = 0 ] || return 1
  { apt-get install -y -qq "$@" || { apt-get update -qq && apt-get install -y -qq "$@"; }; } >/dev/null 2>&1
}
if ! python3 -c 'import yaml' 2>/dev/null; then
  log "installing python3-yaml (for kubeconform's openapi2jsonschema.py)"
  apt_install python3-yaml || { echo "run.sh: python3 with PyYAML is needed" >&2; exit 2; }
fi
HYPERFINE=$(command -v hyperfine || true)
if [ -z "$HYPERFINE" ]; then
  log "installing hyperfine"
  if apt_install hyperfine; then HYPERFINE=$(command -v hyperfine || true); fi
  [ -n "$HYPERFINE" ] || log "hyperfine unavailable: using a plain timing loop"
fi

# ---------------------------------------------------------------- inputs
# Full inputs: (a) 10,000 documents in one file, (b) 1,000 files of 10
# documents (the same 10,000 objects). kubectl-validate takes ~40 ms of CPU
# per document, so by default it is timed on the first 1,000 documents only:
# (a1k) one file of 1,000 documents and (b1k) 100 files of 10, which the
# other two tools are timed on as well.
log "generating inputs"
"$BIN/geninput" -seeds "$EXAMPLES" -out "$WORK/full" -docs 10000 -files 1000 -per-file 10 \
  -exclude Gateway/gateway-addresses >"$WORK/geninput.txt"
"$BIN/geninput" -seeds "$EXAMPLES" -out "$WORK/small" -docs 1000 -files 100 -per-file 10 \
  -exclude Gateway/gateway-addresses >/dev/null
"$BIN/geninput" -seeds "$EXAMPLES" -out "$WORK/one" -docs 1 -files 1 -per-file 1 \
  -exclude Gateway/gateway-addresses >/dev/null
ONE=$WORK/one/one-file.yaml
A=$WORK/full/one-file.yaml
B=$WORK/full/many-files
A1K=$WORK/small/one-file.yaml
B1K=$WORK/small/many-files

# kubeconform's JSON schemas: kubeconform's own converter
# (scripts/openapi2jsonschema.py, from the module cache) on the same CRDs:
# additionalProperties: false on every object with properties (strict), the
# root included (DENY_ROOT_ADDITIONAL_PROPERTIES), files named
# <lowercase kind>_<version>.json.
KC_DIR=$(go mod download -json "github.com/yannh/kubeconform@$KUBECONFORM_VERSION" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
mkdir -p "$WORK/kc-schemas"
(cd "$WORK/kc-schemas" && DENY_ROOT_ADDITIONAL_PROPERTIES=1 python3 "$KC_DIR/scripts/openapi2jsonschema.py" "$CRDS"/*.yaml >/dev/null)
KC_LOC="$WORK/kc-schemas/{{ .ResourceKind }}_{{ .ResourceAPIVersion }}.json"

# Diagnostic: the same CRDs without their x-kubernetes-validations (CEL
# rules), to show what CEL costs kdv; kubeconform ignores those rules.
mkdir -p "$WORK/crds-nocel"
python3 - "$CRDS" "$WORK/crds-nocel" <<'EOF'
import glob, os, sys, yaml
yaml.SafeLoader.add_constructor("tag:yaml.org,2002:value", lambda l, n: l.construct_scalar(n))
def strip(x):
    if isinstance(x, dict):
        x.pop("x-kubernetes-validations", None)
        for v in x.values():
            strip(v)
    elif isinstance(x, list):
        for v in x:
            strip(v)
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.yaml"))):
    docs = [d for d in yaml.safe_load_all(open(f)) if d is not None]
    if not any(isinstance(d, dict) and d.get("kind") == "CustomResourceDefinition" for d in docs):
        continue
    for d in docs:
        strip(d)
    with open(os.path.join(sys.argv[2], os.path.basename(f)), "w") as out:
        yaml.safe_dump_all(docs, out)
EOF

# The exact commands (INPUT is replaced per input).
CMD_KDV="$KDV validate -j $JOBS --crds $CRDS INPUT"
CMD_KC="$KC -strict -summary -n $JOBS -schema-location '$KC_LOC' INPUT"
CMD_KV="$KV --version $KV_KUBERNETES_VERSION --local-crds $CRDS INPUT"
CMD_KDV_NOCEL="$KDV validate -j $JOBS --crds $WORK/crds-nocel INPUT"
NOCEL="kdv, CEL rules removed (diagnostic)"
cmd_for() { local c=$1 in=$2; printf '%s' "${c//INPUT/$in}"; }

# ---------------------------------------------------------------- same work?
# One run of each tool per input, with its verdict: exit code and its own
# summary (kubectl-validate prints one line per file, so its -o json output
# is counted instead).
log "checking verdicts"
VERDICTS=$WORK/verdicts.md
{
  echo "| input | tool | exit | summary |"
  echo "|---|---|---|---|"
} >"$VERDICTS"
verdict() { # input-label input-path tool
  local label=$1 in=$2 tool=$3 out=$WORK/verdict.out rc=0 summary
  case $tool in
  kdv)
    eval "$(cmd_for "$CMD_KDV" "$in")" >"$out" 2>&1 || rc=$?
    summary=$(tail -n 1 "$out")
    ;;
  kdv-nocel)
    tool=$NOCEL
    eval "$(cmd_for "$CMD_KDV_NOCEL" "$in")" >"$out" 2>&1 || rc=$?
    summary=$(tail -n 1 "$out")
    ;;
  kubeconform)
    eval "$(cmd_for "$CMD_KC" "$in")" >"$out" 2>&1 || rc=$?
    summary=$(grep '^Summary:' "$out" || tail -n 1 "$out")
    ;;
  kubectl-validate)
    eval "$(cmd_for "$CMD_KV" "$in") -o json" >"$out" 2>"$out.err" || rc=$?
    summary=$(python3 - "$out" <<'EOF'
import collections, json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception as e:
    print("unreadable -o json output: %s" % e); sys.exit()
c = collections.Counter()
for statuses in d.values():
    for s in (statuses if isinstance(statuses, list) else [statuses]):
        c[s.get("status", "?")] += 1
print("%d documents in %d files (-o json): %s" % (sum(c.values()), len(d),
      ", ".join("%d %s" % (n, k) for k, n in sorted(c.items()))))
EOF
)
    ;;
  esac
  printf '| %s | %s | %s | %s |\n' "$label" "$tool" "$rc" "$summary" >>"$VERDICTS"
  if [ "$rc" != 0 ]; then
    log "$tool on $label exited $rc:"; head -n 20 "$out" >&2
  fi
}
for t in kdv kubeconform kdv-nocel; do
  verdict "(a) 10,000 docs, 1 file" "$A" $t
  verdict "(b) 1,000 files x 10 docs" "$B" $t
done
for t in kdv kubeconform kubectl-validate; do
  verdict "(1) 1 doc" "$ONE" $t
  verdict "(a1k) 1,000 docs, 1 file" "$A1K" $t
  verdict "(b1k) 100 files x 10 docs" "$B1K" $t
done

# What each tool catches: one invalid object per rule kind, each alone in
# a file (all three tools, one run each).
log "checking what each tool catches"
CATCH=$WORK/catch
mkdir -p "$CATCH"
base_route='apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: NAME
spec:
  parentRefs:
  - name: gw'
cat >"$CATCH/1-unknown-field.yaml" <<EOF
${base_route/NAME/unknown-field}
  hostnamez: [example.com]
EOF
cat >"$CATCH/2-schema-pattern.yaml" <<EOF
${base_route/NAME/schema-pattern}
  hostnames: ["Not_A_Hostname"]
EOF
cat >"$CATCH/3-cel-rule.yaml" <<EOF
${base_route/NAME/cel-rule}
  rules:
  - matches:
    - path: {type: PathPrefix, value: "no-leading-slash"}
EOF
cat >"$CATCH/4-list-map-keys.yaml" <<EOF
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: list-map-keys
spec:
  gatewayClassName: example
  listeners:
  - {name: http, port: 80, protocol: HTTP}
  - {name: http, port: 8080, protocol: HTTP}
EOF
cat >"$CATCH/5-metadata-name.yaml" <<EOF
${base_route/NAME/Bad_Name}
EOF
cat >"$CATCH/6-defaulted-oneof.yaml" <<EOF
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: defaulted-oneof
spec:
  gatewayClassName: example
  addresses:
  - value: 1.2.3.4
  listeners:
  - {name: http, port: 80, protocol: HTTP}
EOF
CATCHES=$WORK/catches.md
{
  echo "| object (one per file) | expected (apiserver) | kdv | kubeconform | kubectl-validate |"
  echo "|---|---|---|---|---|"
} >"$CATCHES"
verdict_of() { # command -> "valid" / "INVALID" / "exit N"
  local rc=0
  eval "$1" >/dev/null 2>&1 || rc=$?
  case $rc in 0) echo valid ;; 1) echo INVALID ;; *) echo "exit $rc" ;; esac
}
for f in "$CATCH"/*.yaml; do
  name=$(basename "$f" .yaml)
  case $name in
  1-*) what="unknown field spec.hostnamez: invalid (strict field validation)" ;;
  2-*) what="spec.hostnames[0] fails the schema pattern: invalid" ;;
  3-*) what="path value without leading / (CEL rule on HTTPPathMatch): invalid" ;;
  4-*) what="two listeners named http (listType=map, key name): invalid" ;;
  5-*) what="metadata.name Bad_Name (not a DNS subdomain): invalid" ;;
  6-*) what="address without type: defaulted to IPAddress, so the oneOf holds: valid" ;;
  esac
  printf '| %s | %s | %s | %s | %s |\n' "$name" "$what" \
    "$(verdict_of "$(cmd_for "$CMD_KDV" "$f")")" \
    "$(verdict_of "$(cmd_for "$CMD_KC" "$f")")" \
    "$(verdict_of "$(cmd_for "$CMD_KV" "$f")")" >>"$CATCHES"
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
      --export-json "$json" --export-markdown "${json%.json}.md" "${args[@]}" >&2
    return
  fi
  local first=1
  echo '{"results": [' >"$json"
  while [ $# -gt 0 ]; do
    local name=$1 cmd=$2 i times=()
    shift 2
    for ((i = 0; i < warmup; i++)); do eval "$cmd" >/dev/null 2>&1; done
    : >"$WORK/loop.times"
    for ((i = 0; i < runs; i++)); do
      TIMEFORMAT='%R %U %S'
      { time eval "$cmd" >/dev/null 2>&1; } 2>>"$WORK/loop.times"
    done
    [ $first = 1 ] || echo , >>"$json"
    first=0
    python3 - "$name" "$cmd" "$WORK/loop.times" >>"$json" <<'EOF'
import json, statistics, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[3]) if l.strip()]
real = [r[0] for r in rows]
print(json.dumps({"command": sys.argv[1], "mean": statistics.mean(real),
    "stddev": statistics.stdev(real) if len(real) > 1 else 0.0,
    "min": min(real), "max": max(real), "times": real,
    "user": statistics.mean(r[1] for r in rows), "system": statistics.mean(r[2] for r in rows)}))
EOF
    log "$name: $(tr '\n' ';' <"$WORK/loop.times")"
  done
  echo ']}' >>"$json"
}

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
log "timing (a) 10,000 documents in one file"
timeit "$WORK/t-a.json" "$RUNS" 1 kdv "$(cmd_for "$CMD_KDV" "$A")" kubeconform "$(cmd_for "$CMD_KC" "$A")" \
  "$NOCEL" "$(cmd_for "$CMD_KDV_NOCEL" "$A")"
log "timing (b) 1,000 files of 10 documents"
timeit "$WORK/t-b.json" "$RUNS" 1 kdv "$(cmd_for "$CMD_KDV" "$B")" kubeconform "$(cmd_for "$CMD_KC" "$B")"
if [ "$KV_FULL" = 1 ]; then
  log "timing kubectl-validate on (a) and (b) (KV_FULL=1)"
  timeit "$WORK/t-a-kv.json" "$KV_RUNS" 0 kubectl-validate "$(cmd_for "$CMD_KV" "$A")"
  timeit "$WORK/t-b-kv.json" "$KV_RUNS" 0 kubectl-validate "$(cmd_for "$CMD_KV" "$B")"
fi
log "timing (1) one document: start-up cost"
timeit "$WORK/t-one.json" "$RUNS" 1 kdv "$(cmd_for "$CMD_KDV" "$ONE")" kubeconform "$(cmd_for "$CMD_KC" "$ONE")" \
  kubectl-validate "$(cmd_for "$CMD_KV" "$ONE")" "kdv, no compile cache (first run)" "env KDV_CACHE_DIR=off $(cmd_for "$CMD_KDV" "$ONE")"
log "timing (a1k) 1,000 documents in one file"
timeit "$WORK/t-a1k.json" "$RUNS" 1 kdv "$(cmd_for "$CMD_KDV" "$A1K")" kubeconform "$(cmd_for "$CMD_KC" "$A1K")"
timeit "$WORK/t-a1k-kv.json" "$KV_RUNS" 0 kubectl-validate "$(cmd_for "$CMD_KV" "$A1K")"
log "timing (b1k) 100 files of 10 documents"
timeit "$WORK/t-b1k.json" "$RUNS" 1 kdv "$(cmd_for "$CMD_KDV" "$B1K")" kubeconform "$(cmd_for "$CMD_KC" "$B1K")"
timeit "$WORK/t-b1k-kv.json" "$KV_RUNS" 0 kubectl-validate "$(cmd_for "$CMD_KV" "$B1K")"
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)

TIMES=$WORK/times.md
python3 - "$WORK" >"$TIMES" <<'EOF'
import json, os, sys
w = sys.argv[1]
groups = [("(a) 10,000 docs, 1 file", 10000, ["t-a.json", "t-a-kv.json"]),
          ("(b) 1,000 files x 10 docs", 10000, ["t-b.json", "t-b-kv.json"]),
          ("(a1k) 1,000 docs, 1 file", 1000, ["t-a1k.json", "t-a1k-kv.json"]),
          ("(b1k) 100 files x 10 docs", 1000, ["t-b1k.json", "t-b1k-kv.json"]),
          ("(1) 1 doc: start-up", 1, ["t-one.json"])]
print("| input | tool | runs | wall mean ± σ [s] | min … max [s] | CPU user+sys [s] | docs/s (wall) | wall vs kdv |")
print("|---|---|---|---|---|---|---|---|")
for label, docs, files in groups:
    rows = []
    for f in files:
        p = os.path.join(w, f)
        if os.path.exists(p):
            rows += json.load(open(p))["results"]
    kdv = next((r["mean"] for r in rows if r["command"] == "kdv"), None)
    for r in rows:
        n = len(r.get("times") or []) or 1
        rel = "%.2f×" % (r["mean"] / kdv) if kdv else "-"
        print("| %s | %s | %d | %.3f ± %.3f | %.3f … %.3f | %.2f | %.0f | %s |" % (
            label, r["command"], n, r["mean"], r.get("stddev") or 0.0, r["min"], r["max"],
            r["user"] + r["system"], docs / r["mean"], rel))
    if not any(r["command"] == "kubectl-validate" for r in rows):
        print("| %s | kubectl-validate | – | not timed (KV_FULL=1 to time it; see the 1,000-document rows) | | | | |" % label)
EOF

# ---------------------------------------------------------------- profile
log "profiling kdv on (a)"
PROF=$WORK/kdv-a.pprof
(cd "$WORK" && "$BIN/profile" -crds "$CRDS" -j "$JOBS" -cpuprofile "$PROF" "$A") | sed 's/^/(a), profiled: /' >"$WORK/phases.txt"
(cd "$WORK" && "$BIN/profile" -crds "$CRDS" -j "$JOBS" "$B") | sed 's/^/(b): /' >>"$WORK/phases.txt"
(cd "$ROOT/bench" && go tool pprof -top -nodecount=25 "$BIN/profile" "$PROF" 2>/dev/null) | sed -n '/^Duration/,$p' >"$WORK/flat.txt"
(cd "$ROOT/bench" && go tool pprof -top -cum -nodecount=45 "$BIN/profile" "$PROF" 2>/dev/null) | sed -n '/^ *flat/,$p' >"$WORK/cum.txt"
# CPU per area: all samples whose stack contains a matching function
# (areas overlap: CEL runs inside value validation, allocation and GC
# everywhere).
area() { # label regex
  local line
  line=$(cd "$ROOT/bench" && go tool pprof -top -nodecount=1000000 -nodefraction=0 -edgefraction=0 \
    -focus="$2" "$BIN/profile" "$PROF" 2>/dev/null | grep -m1 '^Showing nodes accounting for' || true)
  printf '| %s | `%s` | %s |\n' "$1" "${2//|/\\|}" "$(sed -E 's/.*accounting for ([^,]+), ([0-9.]+%) of ([^ ]+) total.*/\1 (\2 of \3)/' <<<"$line")"
}
{
  echo "| area | stacks through | CPU |"
  echo "|---|---|---|"
  area "load CRDs (parse, check, convert)" 'resource\.LoadCRDs'
  area "compile validators (first use of each kind)" 'resource\.Compile'
  area "read + YAML decode (kdv.dev/manifest)" 'kdv\.dev/manifest\.'
  area "↳ of which kdv's YAML fast path (manifest/internal/fastyaml)" 'kdv\.dev/manifest/internal/fastyaml\.'
  area "↳ of which YAML to JSON (sigs.k8s.io/yaml; fallback, and CRD files)" 'sigs\.k8s\.io/yaml\.'
  area "validate documents (resource.validateDocument)" 'resource\.validateDocument'
  area "↳ decode/prune/default" 'resource\.\(\*Validator\)\.(decode|Prune|Default)'
  area "↳ value validation incl. CEL (kdv.dev/validation)" 'kdv\.dev/validation\.'
  area "↳ CEL rules (kdv.dev/cel)" 'kdv\.dev/cel\.'
  area "↳↳ of which CEL runtime cost tracking" 'interpreter\.\(\*costTrackerFactory\)|interpreter\.\(\*CostTracker\)'
  area "↳↳ of which property-name unescaping (apiserver cel.Unescape)" 'k8s\.io/apiserver/pkg/cel\.Unescape'
  area "↳↳ of which field access (Find on objects)" 'common\.\(\*unstructuredMap\)\.Find|values\.\(\*object\)\.Find'
  area "built-in kind list (kdv.dev/builtin)" 'kdv\.dev/builtin\.'
  area "allocation (runtime.mallocgc)" 'runtime\.mallocgc$'
  area "garbage collector (background marking)" 'runtime\.gcBgMarkWorker'
} >"$WORK/areas.md"

# ---------------------------------------------------------------- results
log "writing $RESULTS"
GEN=$WORK/generated.md
{
  echo "<!-- BEGIN GENERATED by bench/peers/run.sh: do not edit by hand -->"
  echo "## Run of $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo
  echo "- Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(free -g | awk '/^Mem:/ {print $2}') GiB;" \
    "load average $LOAD_BEFORE before timing, $LOAD_AFTER after (other work on the machine inflates wall times; CPU times suffer less)."
  echo "- $(go version); kdv $(cd "$ROOT" && git rev-parse --short HEAD 2>/dev/null || echo '?')$(cd "$ROOT" && git diff --quiet HEAD -- . 2>/dev/null || echo ' (+ uncommitted changes)');" \
    "kubeconform $KUBECONFORM_VERSION; kubectl-validate $KUBECTL_VALIDATE_VERSION (--version $KV_KUBERNETES_VERSION);" \
    "$( [ -n "$HYPERFINE" ] && "$HYPERFINE" --version || echo 'timing loop (no hyperfine)')."
  echo "- Inputs: $(cat "$WORK/geninput.txt" | sed 's/^geninput: //') (bench/peers/geninput: every HTTPRoute and Gateway of" \
    "gateway.networking.k8s.io/v1 in the Gateway API examples, cycled, each copy renamed <name>-<index>;" \
    "Gateway/gateway-addresses is left out, see below). (a1k)/(b1k) are the first 1,000 of those documents."
  echo "- Schemas: the Gateway API experimental CRDs ($CRDS). kubeconform gets them converted by its own" \
    "scripts/openapi2jsonschema.py (DENY_ROOT_ADDITIONAL_PROPERTIES=1)."
  echo "- Timing: $( [ -n "$HYPERFINE" ] && echo "hyperfine --warmup 1 --runs $RUNS (kubectl-validate: --warmup 0 --runs $KV_RUNS)" || echo "bash time loop, 1 warm-up, $RUNS runs") ; JOBS=$JOBS."
  echo
  echo "Commands (INPUT = the input file or directory):"
  echo
  echo '```'
  echo "${CMD_KDV//$ROOT\//}"
  echo "${CMD_KC//$ROOT\//}" | sed "s#$WORK#\$WORK#g"
  echo "${CMD_KV//$ROOT\//}"
  echo "# diagnostic row: the CRDs with every x-kubernetes-validations removed"
  echo "${CMD_KDV_NOCEL//$ROOT\//}" | sed "s#$WORK#\$WORK#g"
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
  echo "### What each tool catches"
  echo
  cat "$CATCHES"
  echo
  echo "### Where kdv's time goes: CPU profile of input (a)"
  echo
  echo "\`bench/peers/bin/profile -crds ... -j $JOBS -cpuprofile kdv-a.pprof one-file.yaml\` (the CLI's library calls; wall time per phase, and the same without the profiler on (b)):"
  echo
  echo '```'
  cat "$WORK/phases.txt"
  echo '```'
  echo
  cat "$WORK/areas.md"
  echo
  echo "Top functions by own (flat) CPU:"
  echo
  echo '```'
  cat "$WORK/flat.txt"
  echo '```'
  echo
  echo "Top functions by cumulative CPU:"
  echo
  echo '```'
  cat "$WORK/cum.txt"
  echo '```'
  echo "<!-- END GENERATED -->"
} >"$GEN"
python3 - "$RESULTS" "$GEN" <<'EOF'
import os, sys
path, gen = sys.argv[1], open(sys.argv[2]).read().rstrip("\n")
begin, end = "<!-- BEGIN GENERATED", "<!-- END GENERATED -->"
old = open(path).read() if os.path.exists(path) else "# kdv validate vs kubeconform vs kubectl-validate\n\n"
i, j = old.find(begin), old.find(end)
new = old[:i] + gen + old[j + len(end):] if i >= 0 and j > i else old.rstrip("\n") + "\n\n" + gen + "\n"
open(path, "w").write(new)
EOF
cat "$TIMES"
log "done in $(($(date +%s) - START)) s; results in $RESULTS"
