package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"kdv.dev/builtin"
	"kdv.dev/manifest"
	"kdv.dev/report"
	"kdv.dev/resource"
	"kdv.dev/upgrade"
)

type upgradeFlags struct {
	sourceFlags
	from, to      string
	output        string
	showUnchanged bool
}

func newUpgradeCheckCommand() *cobra.Command {
	var f upgradeFlags
	cmd := &cobra.Command{
		Use:   "upgrade-check [flags] PATH...|-",
		Short: "Show what changes for manifests when the cluster moves to another Kubernetes release",
		Long: `Upgrade-check reads manifests as 'kdv validate' does and validates every
document as the apiserver of Kubernetes --from and of --to would: as a create,
and as an unchanged update of the stored object (what objects stored before
the upgrade meet, where ratcheting may let them through). It reports, one line
per finding:

  removed          the API version is no longer served by --to (when it went
                   away and what replaces it)
  deprecated       --to serves it with the apiserver's deprecation warning
  newly rejected   valid at --from, invalid at --to, with the new errors
  newly accepted   invalid at --from, valid at --to
  warnings         warnings --to sends that --from did not, or the reverse
                   (gated fields dropped at one release and kept at the other)

Documents invalid at both releases are counted; --show-unchanged lists them.
Helm charts are rendered for --from (what the cluster runs before the upgrade).
--to older than --from checks a rollback.

Exit codes: 0 nothing breaks, 1 something breaks (removed, newly rejected),
2 usage or unreadable input or schema, 3 internal error.`,
		Example: `  kdv upgrade-check manifests/
  kdv upgrade-check --from 1.35 --to 1.37 -o json manifests/
  helm template chart/ | kdv upgrade-check --from 1.36 -`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := loadConfig(cmd, &f.input)
			if err != nil {
				return &exitError{exitUsage, err}
			}
			ig, err := newIgnorer(f.input, cfg)
			if err != nil {
				return &exitError{exitUsage, err}
			}
			return runUpgradeCheck(cmd, args, f, ignoreFunc(ig), func() {
				reportIgnored(cmd.ErrOrStderr(), ig, &report.Result{}, "", f.input)
			})
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.from, "from", "", "the Kubernetes version the cluster runs, e.g. 1.35 (default: the oldest kdv knows)")
	fl.StringVar(&f.to, "to", "", "the Kubernetes version it moves to, e.g. 1.37 (default: the newest kdv knows)")
	fl.StringVarP(&f.output, "output", "o", "text", "output format: "+strings.Join(upgrade.Formats, ", "))
	fl.BoolVar(&f.showUnchanged, "show-unchanged", false, "list the documents invalid at both releases (otherwise only counted)")
	addSourceFlags(cmd, &f.sourceFlags, "check")
	return cmd
}

// upgradeRelease parses --from or --to; empty is the oldest (from) or the
// newest (to) embedded release. A release kdv does not embed is an error
// naming those it does.
func upgradeRelease(name, s string, newest bool) (int, error) {
	versions := builtin.Versions()
	if len(versions) == 0 {
		return 0, fmt.Errorf("kdv was built without built-in schemas")
	}
	if s == "" {
		if newest {
			return versions[len(versions)-1], nil
		}
		return versions[0], nil
	}
	minor, err := parseKubernetesVersion(s)
	if err != nil {
		return 0, fmt.Errorf("invalid --%s %q: want 1.<minor>, e.g. 1.37", name, s)
	}
	if !slices.Contains(versions, minor) {
		known := make([]string, len(versions))
		for i, v := range versions {
			known[i] = fmt.Sprintf("1.%d", v)
		}
		return 0, fmt.Errorf("--%s %s: kdv embeds Kubernetes %s", name, s, strings.Join(known, ", "))
	}
	return minor, nil
}

func runUpgradeCheck(cmd *cobra.Command, args []string, f upgradeFlags, ignore func(string, bool) bool, ignored func()) error {
	from, err := upgradeRelease("from", f.from, false)
	if err != nil {
		return &exitError{exitUsage, err}
	}
	to, err := upgradeRelease("to", f.to, true)
	if err != nil {
		return &exitError{exitUsage, err}
	}
	if !slices.Contains(upgrade.Formats, f.output) {
		return &exitError{exitUsage, fmt.Errorf("unknown output format %q: must be one of %s", f.output, strings.Join(upgrade.Formats, ", "))}
	}
	if countStdin(args, f.crds) > 1 {
		return &exitError{exitUsage, fmt.Errorf("stdin (-) can be read only once")}
	}
	stderr := cmd.ErrOrStderr()
	stdin := cmd.InOrStdin()
	// Each release's registry loads --crds again: stdin is read once.
	var crdStdin []byte
	if slices.Contains(f.crds, "-") {
		if crdStdin, err = io.ReadAll(stdin); err != nil {
			return &exitError{exitUsage, fmt.Errorf("--crds -: %w", err)}
		}
	}
	badSchemas := false
	first := true
	newReg := func(minor int) (*resource.Registry, error) {
		// --crds and --schemas problems are the same for every pass:
		// said once.
		w := io.Discard
		if first {
			w, first = stderr, false
		}
		reg, bad, err := newRegistry(bytes.NewReader(crdStdin), w, resource.Options{KubernetesMinor: minor}, f.crds, f.schemas)
		badSchemas = badSchemas || bad
		return reg, err
	}
	pending, readErr := manifest.ReadPending(args, stdin, manifest.Options{StrictInputs: f.strictInputs, Build: buildDirs(f.sourceFlags, from), Ignore: ignore})
	ignored()
	res, err := upgrade.Check(context.Background(), upgrade.Decode(pending), upgrade.Options{
		From: from, To: to,
		Registry: newReg,
		Run: resource.RunOptions{
			Jobs:                 f.jobs,
			SkipKinds:            f.skip,
			RejectKinds:          f.reject,
			IgnoreMissingSchemas: f.ignoreMissingSchemas,
			StrictInputs:         f.strictInputs,
			Check:                resource.CheckOptions{StrictUnknownFields: f.strictCRDs},
		},
	})
	if err != nil {
		return &exitError{exitUsage, err}
	}
	if err := upgrade.Write(cmd.OutOrStdout(), f.output, res, upgrade.WriteOptions{ShowUnchanged: f.showUnchanged, NoSummary: !f.input.summary, Verbose: f.input.verbose}); err != nil {
		return &exitError{exitInternal, err}
	}
	code := res.ExitCode()
	if readErr != nil {
		printErrors(stderr, "", readErr)
	}
	if readErr != nil || badSchemas {
		code = max(code, exitUsage)
	}
	if code != exitValid {
		return &exitError{code: code}
	}
	return nil
}
