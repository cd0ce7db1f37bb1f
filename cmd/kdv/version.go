package main

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"kdv.dev/builtin"
)

// versionInfo is what `kdv version` prints; its JSON field names are part
// of the output contract.
type versionInfo struct {
	// Version is kdv's version: see kdvVersion.
	Version string `json:"version"`
	// GoVersion is the Go release kdv was built with.
	GoVersion string `json:"goVersion"`
	// KubernetesVersions are the releases whose built-in schemas and rules
	// kdv embeds, ascending, as "1.<minor>".
	KubernetesVersions []string `json:"kubernetesVersions"`
	// DefaultKubernetesVersion is the one used without --kubernetes-version.
	DefaultKubernetesVersion string `json:"defaultKubernetesVersion"`
}

// kdvVersion is kdv's version: the one set at link time (-ldflags "-X
// main.version=v1.2.3") when there is one, else the main module's version
// (`go install kdv.dev/cmd/kdv@v1.2.3`), else the VCS revision the binary
// was built from (with "-dirty" for uncommitted changes), else "(devel)",
// which is what the Go toolchain calls a build whose version it does not
// know.
func kdvVersion() string {
	if version != "dev" && version != "" {
		return version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(devel)"
	}
	return versionOf(bi)
}

// versionOf is kdvVersion's reading of build information.
func versionOf(bi *debug.BuildInfo) string {
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev string
	var dirty bool
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "(devel)"
	}
	if dirty {
		rev += "-dirty"
	}
	return rev
}

func newVersionCommand() *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print kdv's version and the Kubernetes releases it embeds",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			info := versionInfo{Version: kdvVersion(), GoVersion: runtime.Version(), KubernetesVersions: []string{}}
			for _, m := range builtin.Versions() {
				info.KubernetesVersions = append(info.KubernetesVersions, "1."+strconv.Itoa(m))
			}
			if n := len(info.KubernetesVersions); n > 0 {
				info.DefaultKubernetesVersion = info.KubernetesVersions[n-1]
			}
			return writeVersion(cmd.OutOrStdout(), output, info)
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "text", "output format: text, json")
	return cmd
}

// writeVersion writes info as text (two lines) or JSON.
func writeVersion(w io.Writer, output string, info versionInfo) error {
	switch output {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(info)
	case "text":
		_, err := fmt.Fprintf(w, "kdv %s (%s)\nKubernetes %s (built-in schemas and rules; default %s)\n",
			info.Version, info.GoVersion, strings.Join(info.KubernetesVersions, ", "), info.DefaultKubernetesVersion)
		return err
	}
	return &exitError{exitUsage, fmt.Errorf("unknown output format %q: must be one of text, json", output)}
}
