package main

import (
	"github.com/spf13/cobra"
)

// version is set at build time with -ldflags "-X main.version=..."; see
// kdvVersion for what is used without it.
var version = "dev"

func newRootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "kdv",
		Short: "Kubernetes declarative validation: the apiserver's verdict, offline",
		Long: `kdv validates Kubernetes manifests and CustomResourceDefinitions as the
kube-apiserver would (structural schemas, OpenAPI value validation, CEL rules,
list types, ObjectMeta, pruning and defaulting), and generates OpenAPI and CRDs
from tagged Go types.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       kdvVersion(),
	}
	root.AddCommand(newCheckCommand(), newValidateCommand(), newPruneCommand(), newDefaultCommand(), newGenCommand(), newCompatCommand(), newUpgradeCheckCommand(), newLintCommand(), newVersionCommand(), newAuditCommand())
	return root
}
