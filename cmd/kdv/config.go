package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"kdv.dev/config"
	"kdv.dev/report"
)

// inputFlags are the flags validate and check share about what is read and
// how much is said: the configuration file, ignored paths, verbosity and
// the summary line (kubeconform's -ignore-filename-pattern, -verbose and
// -summary).
type inputFlags struct {
	config         string
	noConfig       bool
	ignorePatterns []string
	verbose        bool
	summary        bool
}

// addInputFlags defines inputFlags on cmd.
func addInputFlags(cmd *cobra.Command, f *inputFlags) {
	fl := cmd.Flags()
	fl.StringVar(&f.config, "config", "", "the configuration file (default: "+config.Name+" in the working directory or the nearest parent holding one)")
	fl.BoolVar(&f.noConfig, "no-config", false, "read no configuration file")
	fl.StringArrayVar(&f.ignorePatterns, "ignore-filename-pattern", nil, "a regular expression: files whose path matches are not read (repeatable)")
	fl.BoolVarP(&f.verbose, "verbose", "v", false, "list valid documents and ignored files too (text output)")
	fl.BoolVar(&f.summary, "summary", true, "end the text output with the summary line")
}

// pathFlags are the flags whose values are paths: in a configuration file
// they are relative to the file's directory.
var pathFlags = map[string]bool{"crds": true, "schemas": true, "old": true, "values": true}

// configKeys returns the flags a configuration file may set: every flag of
// validate and check but those choosing the configuration itself.
func configKeys() []string {
	var keys []string
	for _, cmd := range []*cobra.Command{newValidateCommand(), newCheckCommand()} {
		cmd.Flags().VisitAll(func(fl *pflag.Flag) {
			if fl.Name != "config" && fl.Name != "no-config" && !slices.Contains(keys, fl.Name) {
				keys = append(keys, fl.Name)
			}
		})
	}
	slices.Sort(keys)
	return keys
}

// loadConfig finds and loads the configuration file (unless --no-config)
// and sets each flag of cmd that it names and the command line does not;
// it returns the file, nil when there is none. With --verbose it says on
// stderr which file it uses.
func loadConfig(cmd *cobra.Command, f *inputFlags) (*config.File, error) {
	if f.noConfig {
		if f.config != "" {
			return nil, fmt.Errorf("--config and --no-config contradict each other")
		}
		return nil, nil
	}
	path := f.config
	if path == "" {
		if cmd.Flags().Changed("config") {
			return nil, fmt.Errorf("--config needs a file name (--no-config reads none)")
		}
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		if path, err = config.Find(wd); err != nil || path == "" {
			return nil, err
		}
		// Named relative to the working directory in messages, as inputs are.
		if rel, err := filepath.Rel(wd, path); err == nil {
			path = rel
		}
	}
	file, err := config.Load(path, configKeys())
	if err != nil {
		return nil, err
	}
	if err := applyConfig(cmd, file); err != nil {
		return nil, err
	}
	if f.verbose {
		fmt.Fprintf(cmd.ErrOrStderr(), "kdv: configuration: %s\n", file.Path)
	}
	return file, nil
}

// applyConfig sets the flags of cmd that file names and the command line
// does not (flags on the command line win). Keys for the other command's
// flags are left alone. Values are set as the command line sets them, so
// they are checked the same way; a list replaces a list flag's default, a
// scalar is one value (split at commas for comma-separated flags, as on the
// command line).
func applyConfig(cmd *cobra.Command, file *config.File) error {
	for _, s := range file.Settings {
		fl := cmd.Flags().Lookup(s.Name)
		if fl == nil || fl.Changed {
			continue
		}
		values := s.Values
		if pathFlags[s.Name] {
			values = make([]string, len(s.Values))
			for i, v := range s.Values {
				values[i] = file.Resolve(v)
			}
		}
		where := fmt.Sprintf("%s:%d: %s", file.Path, s.Line, s.Name)
		list, isList := fl.Value.(interface{ Replace([]string) error })
		switch {
		case s.List && !isList:
			return fmt.Errorf("%s: takes one value, not a list", where)
		case s.List:
			if err := list.Replace(values); err != nil {
				return fmt.Errorf("%s: %v", where, err)
			}
		default:
			if err := fl.Value.Set(values[0]); err != nil {
				return fmt.Errorf("%s: invalid value %q: %v", where, values[0], err)
			}
		}
	}
	return nil
}

// newIgnorer returns the Ignorer of --ignore-filename-pattern and the
// configuration's ignore globs.
func newIgnorer(f inputFlags, file *config.File) (*config.Ignorer, error) {
	return config.NewIgnorer(f.ignorePatterns, file)
}

// ignoreFunc is ig.Ignore for manifest.Options.Ignore, or nil when ig can
// ignore nothing (so that the walk does not even ask).
func ignoreFunc(ig *config.Ignorer) func(string, bool) bool {
	if !ig.Active() {
		return nil
	}
	return ig.Ignore
}

// reportIgnored puts what ig ignored into res and, when the output will not
// say it (not text, or text without summary nor -v), says it on stderr:
// nothing is left out without a word.
func reportIgnored(stderr io.Writer, ig *config.Ignorer, res *report.Result, output string, f inputFlags) {
	for _, i := range ig.Ignored() {
		res.Ignored = append(res.Ignored, report.IgnoredFile{File: i.Path, Reason: i.Reason})
	}
	if len(res.Ignored) == 0 || output == "text" && (f.summary || f.verbose) {
		return
	}
	if f.verbose {
		for _, i := range res.Ignored {
			fmt.Fprintf(stderr, "kdv: %s: ignored: %s\n", i.File, i.Reason)
		}
		return
	}
	n := len(res.Ignored)
	word := "paths"
	if n == 1 {
		word = "path"
	}
	fmt.Fprintf(stderr, "kdv: %d %s ignored; -v lists them with the pattern that matched\n", n, word)
}

// reportOptions are the writer options of validate and check.
func reportOptions(cmd *cobra.Command, output string, f inputFlags) report.Options {
	return report.Options{
		Color:       useColor(cmd.OutOrStdout()) && output == "text",
		ToolVersion: kdvVersion(),
		Verbose:     f.verbose,
		NoSummary:   !f.summary,
	}
}
