#!/usr/bin/env bash
# Benchmark: `kdv gen openapi` vs upstream openapi-gen (k8s.io/kube-openapi)
# on the same input packages: every k8s.io/api package whose doc.go carries
# +k8s:openapi-gen=true, plus the apimachinery packages Kubernetes passes to
# openapi-gen (meta/v1, runtime, version, api/resource, util/intstr).
#
# Issue #6 acceptance: kdv's wall time must be at most one third of
# openapi-gen's. Both tools run in one scratch Go module that requires
# k8s.io/api and k8s.io/apimachinery at the version pinned in the kdv go.mod,
# fetched from the module proxy, so they read identical sources.
#
# Output differs in kind: openapi-gen writes one Go file
# (zz_generated.openapi.go, to be compiled into an apiserver), kdv writes one
# OpenAPI v3 JSON document per group-version. The comparison is the wall time
# of the whole command on the same inputs, with a warm Go build cache.
#
# Usage: bench/gen/run.sh            (hyperfine if installed, else /usr/bin/time loop)
#        RUNS=10 bench/gen/run.sh
#        COLD=1 bench/gen/run.sh     (also one run of each with an empty GOCACHE)
# Needs: Go (GOTOOLCHAIN=local), network access to the Go module proxy.
# Not run by CI.
set -euo pipefail

export GOTOOLCHAIN=local
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BIN="$HERE/bin"
SCRATCH="$HERE/scratch"
RUNS=${RUNS:-5}
WARMUP=${WARMUP:-1}

cd "$ROOT"
K8S_VERSION=${K8S_VERSION:-$(go list -m -f '{{.Version}}' k8s.io/api)}
OPENAPI_VERSION=${OPENAPI_VERSION:-$(go list -m -f '{{.Version}}' k8s.io/kube-openapi)}

mkdir -p "$BIN" "$SCRATCH"
echo "== building kdv ($(git -C "$ROOT" rev-parse --short HEAD))"
go build -o "$BIN/kdv" ./cmd/kdv
echo "== installing openapi-gen k8s.io/kube-openapi@$OPENAPI_VERSION"
GOBIN="$BIN" GOFLAGS=-mod=mod go install "k8s.io/kube-openapi/cmd/openapi-gen@$OPENAPI_VERSION"

# Scratch module: both tools resolve packages from here.
MOD="$SCRATCH/mod"
rm -rf "$MOD"
mkdir -p "$MOD"
cd "$MOD"
cat > go.mod <<GOMOD
module bench.example/gen

go $(go env GOVERSION | sed 's/^go//; s/^\([0-9]*\.[0-9]*\).*/\1/').0
GOMOD
cat > deps.go <<'GO'
// Package gen only pins k8s.io/api and k8s.io/apimachinery for the benchmark.
package gen

import (
	_ "k8s.io/api/core/v1"
	_ "k8s.io/apimachinery/pkg/apis/meta/v1"
)
GO
echo "== scratch module requiring k8s.io/api@$K8S_VERSION k8s.io/apimachinery@$K8S_VERSION"
go get "k8s.io/api@$K8S_VERSION" "k8s.io/apimachinery@$K8S_VERSION" >/dev/null 2>&1
go mod tidy >/dev/null 2>&1   # scratch module only, never the kdv module

# Input set: k8s.io/api packages tagged +k8s:openapi-gen=true (openapi-gen
# ignores the others) plus apimachinery's openapi packages.
PKGS=$(go list -f '{{.ImportPath}} {{.Dir}}' k8s.io/api/... |
	while read -r p d; do grep -qs '+k8s:openapi-gen=true' "$d/doc.go" && echo "$p"; done)
PKGS="$PKGS
k8s.io/apimachinery/pkg/apis/meta/v1
k8s.io/apimachinery/pkg/runtime
k8s.io/apimachinery/pkg/version
k8s.io/apimachinery/pkg/api/resource
k8s.io/apimachinery/pkg/util/intstr"
echo "$PKGS" > "$SCRATCH/packages.txt"
NPKGS=$(echo "$PKGS" | wc -l)
echo "== $NPKGS input packages (list: $SCRATCH/packages.txt)"
PKGARGS=$(echo "$PKGS" | tr '\n' ' ')

KDV_CMD="$BIN/kdv gen openapi --out $SCRATCH/out-kdv $PKGARGS"
OG_CMD="$BIN/openapi-gen --output-dir $SCRATCH/out-openapi-gen --output-pkg bench.example/gen/openapi --output-file zz_generated.openapi.go --go-header-file /dev/null --report-filename $SCRATCH/api-violations.txt $PKGARGS"

# Optional cold-cache run (empty GOCACHE): kdv reads dependencies' export
# data from the build cache, so its first run on a machine compiles them.
if [ "${COLD:-0}" = 1 ]; then
	echo "== cold build cache (one run each, fresh GOCACHE)"
	for t in kdv openapi-gen; do
		c=$KDV_CMD; [ "$t" = openapi-gen ] && c=$OG_CMD
		rm -rf "$SCRATCH/out-kdv" "$SCRATCH/out-openapi-gen" "$SCRATCH/gocache-cold"
		s=$(date +%s.%N)
		GOCACHE="$SCRATCH/gocache-cold" $c >/dev/null 2>&1
		e=$(date +%s.%N)
		printf '%-12s cold: %.2f s\n' "$t" "$(echo "$e - $s" | bc)"
	done
	rm -rf "$SCRATCH/gocache-cold"
fi

# Warm-cache comparison. Output dirs are removed before every run.
PREP="rm -rf $SCRATCH/out-kdv $SCRATCH/out-openapi-gen"
if command -v hyperfine >/dev/null; then
	hyperfine --warmup "$WARMUP" --runs "$RUNS" --prepare "$PREP" \
		--export-json "$SCRATCH/hyperfine.json" --export-markdown "$SCRATCH/hyperfine.md" \
		-n "kdv gen openapi" "$KDV_CMD >/dev/null 2>&1" \
		-n "openapi-gen" "$OG_CMD >/dev/null 2>&1"
	read -r KDV OG KDVCPU OGCPU < <(python3 -c 'import json,sys
r=json.load(open(sys.argv[1]))["results"]
print(r[0]["mean"], r[1]["mean"], r[0]["user"]+r[0]["system"], r[1]["user"]+r[1]["system"])' "$SCRATCH/hyperfine.json")
else
	mean() { # "wall cpu": mean seconds of $RUNS runs after $WARMUP discarded runs
		local i wall=0 cpu=0 w c
		for ((i = 0; i < WARMUP + RUNS; i++)); do
			$PREP
			read -r w c < <(/usr/bin/time -f '%e %U %S' -o "$SCRATCH/time.txt" "$@" >/dev/null 2>&1
				awk '{print $1, $2 + $3}' "$SCRATCH/time.txt")
			if [ "$i" -ge "$WARMUP" ]; then
				wall=$(echo "$wall + $w" | bc -l)
				cpu=$(echo "$cpu + $c" | bc -l)
			fi
		done
		echo "$(echo "$wall / $RUNS" | bc -l) $(echo "$cpu / $RUNS" | bc -l)"
	}
	read -r KDV KDVCPU < <(mean $KDV_CMD)
	read -r OG OGCPU < <(mean $OG_CMD)
fi

# Sanity: both produced output.
$PREP
$KDV_CMD >/dev/null 2>&1
$OG_CMD >/dev/null 2>&1
echo "== outputs: kdv $(ls "$SCRATCH/out-kdv" | wc -l) JSON files ($(du -sh "$SCRATCH/out-kdv" | cut -f1));" \
	"openapi-gen $(grep -c '^func schema_' "$SCRATCH/out-openapi-gen/zz_generated.openapi.go") definitions ($(du -sh "$SCRATCH/out-openapi-gen" | cut -f1))"

RATIO=$(echo "$KDV / $OG" | bc -l)
printf '\nmachine: %s cores, %s; load average %s\n' "$(nproc)" \
	"$(lscpu | sed -n 's/^Model name: *//p' | head -1)" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf 'kdv gen openapi: wall %.3f s, cpu (user+sys) %.3f s (mean of %d)\n' "$KDV" "$KDVCPU" "$RUNS"
printf 'openapi-gen:     wall %.3f s, cpu (user+sys) %.3f s (mean of %d)\n' "$OG" "$OGCPU" "$RUNS"
printf 'ratio kdv/openapi-gen: wall %.3f, cpu %.3f (goal: wall <= 0.333): %s\n' \
	"$RATIO" "$(echo "$KDVCPU / $OGCPU" | bc -l)" "$(echo "$RATIO <= 1/3" | bc -l | sed 's/1/MET/; s/0/NOT MET/')"
