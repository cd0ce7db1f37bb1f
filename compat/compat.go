// Package compat compares two versions of an API (CustomResourceDefinitions
// or OpenAPI v3 documents, as structural schemas) and reports every change
// the Kubernetes API-change guide ("Changing the API", seed 002) calls
// incompatible, with a severity and the rule it breaks, and the compatible
// changes as safe.
//
// Severities answer "what does a cluster running NEW do to what worked
// under OLD?", on the issue's three-level scale plus safe:
//
//   - breaks-objects: values that existing objects may hold become invalid
//     or are lost (removed fields are pruned, a changed type no longer
//     decodes, a tightened bound or removed enum value rejects values that
//     were valid). Validation ratcheting (KEP-4008, GA in 1.33) lets an
//     update that leaves such a value unchanged through, but a create with
//     it fails (re-applying the same manifest to a new cluster, a GitOps
//     re-create) and any update touching the field must fix it, so the
//     objects as written are broken. The guide: "valid values do not become
//     invalid". New or changed transition rules (CEL rules using oldSelf)
//     are here too: the apiserver never ratchets them.
//   - breaks-clients: existing objects stay valid but clients written
//     against OLD misbehave: a new enum value they do not know, a changed
//     default, a version no longer served, a renamed kind.
//   - ratcheted: safe for existing objects only thanks to ratcheting: a new
//     or changed CEL rule without oldSelf. kdv cannot tell whether the rule
//     rejects values that were valid (it may state what controllers already
//     enforced), so it does not claim a break; on update the apiserver
//     ratchets the rule's errors on unchanged values, on create it does not.
//   - safe: compatible (a new optional field, a loosened bound, a removed
//     pattern); listed so a reviewer sees the whole change.
//
// Severities are ordered: safe < ratcheted < breaks-clients < breaks-objects.
package compat

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Severity says whom a change breaks; see the package documentation.
type Severity int

const (
	// Safe is a compatible change.
	Safe Severity = iota
	// Ratcheted is safe for existing objects only because the apiserver
	// ratchets the new rule's errors on unchanged values (KEP-4008).
	Ratcheted
	// BreaksClients leaves stored objects valid but breaks clients written
	// against the old API.
	BreaksClients
	// BreaksObjects makes values existing objects may hold invalid or lost.
	BreaksObjects
)

var severityNames = [...]string{"safe", "ratcheted", "breaks-clients", "breaks-objects"}

// String returns the severity's stable name, e.g. "breaks-objects".
func (s Severity) String() string {
	if s < 0 || int(s) >= len(severityNames) {
		return fmt.Sprintf("Severity(%d)", int(s))
	}
	return severityNames[s]
}

// ParseSeverity parses a severity name as String returns it.
func ParseSeverity(name string) (Severity, error) {
	for i, n := range severityNames {
		if n == name {
			return Severity(i), nil
		}
	}
	return 0, fmt.Errorf("unknown severity %q: must be one of %s", name, strings.Join(severityNames[:], ", "))
}

// MarshalJSON renders the severity by name.
func (s Severity) MarshalJSON() ([]byte, error) { return json.Marshal(s.String()) }

// UnmarshalJSON reads a severity by name.
func (s *Severity) UnmarshalJSON(b []byte) error {
	var n string
	if err := json.Unmarshal(b, &n); err != nil {
		return err
	}
	v, err := ParseSeverity(n)
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// Change is one difference between OLD and NEW.
type Change struct {
	// Object names what changed: a CRD by name ("widgets.example.com"), or
	// an OpenAPI schema by group/version, Kind.
	Object string `json:"object"`
	// Version is the API version whose schema changed; empty for changes of
	// the CRD as a whole.
	Version string `json:"version,omitempty"`
	// Path is the field path: "spec.ports[*].port", with [*] for list items
	// and {*} for the values of a map (additionalProperties); empty for the
	// root or the CRD as a whole.
	Path string `json:"path,omitempty"`
	// Kind is a stable machine id, e.g. "enum-value-removed" (see Kinds).
	Kind string `json:"kind"`
	// Severity says whom it breaks.
	Severity Severity `json:"severity"`
	// Message says what changed, in one line.
	Message string `json:"message"`
	// Rule names the API-change guide rule (or apiserver behaviour) that
	// decides the severity, in one line.
	Rule string `json:"rule"`
	// Hint is advice for the author, when there is some.
	Hint string `json:"hint,omitempty"`
	// Old and New are the values before and after (nil when absent).
	Old any `json:"old,omitempty"`
	New any `json:"new,omitempty"`
	// File and Line locate the changed object in NEW ("file", line of its
	// document), or in OLD when NEW no longer has it.
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
}

// Location renders Object, Version and Path as "object/version: path".
func (c Change) Location() string {
	loc := c.Object
	if c.Version != "" {
		loc += "/" + c.Version
	}
	if c.Path != "" {
		loc += ": " + c.Path
	}
	return loc
}

// String renders the change as one report line:
// "<object>/<version>: <path>: <severity> <kind>: <message>".
func (c Change) String() string {
	return c.Location() + ": " + c.Severity.String() + " " + c.Kind + ": " + c.Message
}

// Worst returns the highest severity among changes, and false when there
// are none.
func Worst(changes []Change) (Severity, bool) {
	worst, any := Safe, false
	for _, c := range changes {
		if !any || c.Severity > worst {
			worst, any = c.Severity, true
		}
	}
	return worst, any
}

// Rules of the API-change guide (seed 002, "On compatibility" and "Backward
// compatibility gotchas") and of the apiserver, quoted by changes.
const (
	ruleValidValues     = `API-change guide: "valid values do not become invalid"`
	ruleRequired        = `API-change guide: compatible changes do not add a new required field`
	ruleRemoveField     = `API-change guide: "API calls and stored objects that used to work must continue to work"; the apiserver prunes fields the schema no longer has`
	ruleType            = `API-change guide: do not change the "interpretation of existing API types, fields, and values"`
	ruleEnumAdded       = `API-change guide: "Adding a new value to an enumerated set is not a compatible change"`
	ruleEnumOpen        = `API-change guide: new enum values are safe when the description says clients must expect them`
	ruleEnumRemoved     = `API-change guide: removing an enum value is compatible only if the removed value stays "deprecated but allowed"`
	ruleLoosened        = `API-change guide: weakening validation keeps previously valid values valid`
	ruleNewOptional     = `API-change guide: "It is generally allowed to add new fields"`
	ruleDefault         = `API-change guide: do not change "the semantic meaning of default values and behavior"`
	ruleRatcheted       = `KEP-4008: the apiserver ratchets errors of rules without oldSelf on unchanged values, but not on create`
	ruleTransition      = `KEP-4008: transition rules (using oldSelf) are never ratcheted; updates that passed before may fail`
	ruleListType        = `API-change guide: do not change the "interpretation of existing API types"; list and map types decide uniqueness and server-side apply merges`
	rulePruning         = `Pruning: fields no longer preserved are dropped from stored objects on read and write`
	ruleVersionRemoved  = `API-change guide: API versions are removed only through the deprecation policy; objects and clients of the version break`
	ruleUnserved        = `deprecation policy: clients of a version that is no longer served get 404`
	ruleStorageNew      = `API-change guide: "do not add a new API version ... and make it the storage version" in the same release: a rollback cannot decode stored objects`
	ruleScope           = `the apiserver forbids changing spec.scope of an existing CRD ("field is immutable")`
	ruleNames           = `API-change guide: clients address the resource by these names; renaming breaks them`
	ruleConversion      = `conversion strategy None only rewrites apiVersion: objects stored in another version lose what the schemas do not share`
	ruleSubresource     = `status subresource: with it, writes to the main resource ignore status and writes to /status ignore the rest`
	ruleUnanalysed      = `kdv does not compare allOf/anyOf/oneOf/not structurally; check this change by hand`
	ruleEmbedded        = `an embedded resource's apiVersion, kind and metadata are validated and kept as an object's; changing it changes what is valid and pruned`
	ruleNullable        = `API-change guide: "valid values do not become invalid" (null is a value); readers of a newly nullable field may get null`
	ruleRequiredRemoved = `API-change guide: "which fields are required" is semantics; readers may now see the field unset`
)
