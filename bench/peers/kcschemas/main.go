// Command kcschemas writes kubeconform's JSON schemas for built-in kinds from
// the schemas kdv embeds (kdv.dev/builtin), so that bench/peers/builtin.sh
// compares kdv and kubeconform on the same Kubernetes OpenAPI.
//
// Usage:
//
//	kcschemas -out DIR [-minor 37] [-kinds apps/v1/Deployment,v1/Service,...|all]
//
// It writes DIR/v1.<minor>.0-standalone-strict/<kind><suffix>.json and
// DIR/v1.<minor>.0-standalone/<kind><suffix>.json, the layout kubeconform
// reads with -schema-location DIR -kubernetes-version 1.<minor>.0 (its
// template {{ .NormalizedKubernetesVersion }}-standalone{{ .StrictSuffix
// }}/{{ .ResourceKind }}{{ .KindSuffix }}.json: lower-case kind, then
// "-<first label of the group>" for named groups, then "-<version>", e.g.
// deployment-apps-v1.json, service-v1.json).
//
// The conversion is what openapi2jsonschema --kubernetes --expanded
// --stand-alone [--strict] does to the Kubernetes OpenAPI, which is how
// kubeconform's default schemas (yannh/kubernetes-json-schema) are made:
// each kind's schema fully resolved (builtin.Props); IntOrString
// (x-kubernetes-int-or-string) becomes oneOf [string, integer]; Quantity
// (kdv's x-kubernetes-preserve-unknown-fields with the quantity pattern and
// no type) becomes oneOf [string, number]; every optional property (not in
// its object's required list) also accepts null; apiVersion and kind get
// the kind's values as enum; every x- extension is dropped (kdv's own ones
// and the apiserver's: list types, CEL rules, unions, lifecycle); standard
// keywords kdv's data carries (type, enum, pattern, format, minimum,
// maxItems, required, ...) are kept as they are, except that repeated enum
// values are dropped. The -strict variant adds
// additionalProperties: false to every object with properties, the root
// included, except objects that preserve unknown fields.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"kdv.dev/builtin"
	"kdv.dev/schema"
)

func main() {
	out := flag.String("out", "", "output directory")
	minor := flag.Int("minor", 37, "Kubernetes minor version (1.<minor>)")
	kindList := flag.String("kinds", "apps/v1/Deployment,v1/Service,v1/ConfigMap,v1/Pod",
		"comma-separated [group/]version/Kind, or all")
	flag.Parse()
	if *out == "" {
		flag.Usage()
		os.Exit(2)
	}
	all, err := builtin.Kinds(*minor)
	must(err)
	var gvks []schema.GroupVersionKind
	if *kindList == "all" {
		for _, k := range all {
			gvks = append(gvks, k.GroupVersionKind)
		}
	} else {
		for _, s := range strings.Split(*kindList, ",") {
			parts := strings.Split(strings.TrimSpace(s), "/")
			switch len(parts) {
			case 2:
				gvks = append(gvks, schema.GroupVersionKind{Version: parts[0], Kind: parts[1]})
			case 3:
				gvks = append(gvks, schema.GroupVersionKind{Group: parts[0], Version: parts[1], Kind: parts[2]})
			default:
				must(fmt.Errorf("-kinds: %q is not [group/]version/Kind", s))
			}
		}
	}
	dirs := map[bool]string{
		true:  filepath.Join(*out, fmt.Sprintf("v1.%d.0-standalone-strict", *minor)),
		false: filepath.Join(*out, fmt.Sprintf("v1.%d.0-standalone", *minor)),
	}
	for _, d := range dirs {
		must(os.MkdirAll(d, 0o755))
	}
	written := map[string]schema.GroupVersionKind{}
	for _, gvk := range gvks {
		p, err := builtin.Props(*minor, gvk)
		must(err)
		raw, err := json.Marshal(p)
		must(err)
		file := fileName(gvk)
		if prev, dup := written[file]; dup {
			must(fmt.Errorf("%s and %s both map to %s", prev, gvk, file))
		}
		written[file] = gvk
		for strict, dir := range dirs {
			var root map[string]any
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.UseNumber()
			must(dec.Decode(&root))
			s := convert(root, strict).(map[string]any)
			apiVersion := gvk.Version
			if gvk.Group != "" {
				apiVersion = gvk.Group + "/" + gvk.Version
			}
			pin(s, "apiVersion", apiVersion)
			pin(s, "kind", gvk.Kind)
			data, err := json.MarshalIndent(s, "", "  ")
			must(err)
			must(os.WriteFile(filepath.Join(dir, file), append(data, '\n'), 0o644))
		}
	}
	fmt.Printf("kcschemas: %d kinds of Kubernetes 1.%d (strict and non-strict) in %s\n", len(gvks), *minor, *out)
}

// fileName is kubeconform's {{ .ResourceKind }}{{ .KindSuffix }}.json.
func fileName(gvk schema.GroupVersionKind) string {
	suffix := "-" + strings.ToLower(gvk.Version)
	if gvk.Group != "" {
		suffix = "-" + strings.ToLower(strings.Split(gvk.Group, ".")[0]) + suffix
	}
	return strings.ToLower(gvk.Kind) + suffix + ".json"
}

// convert returns the JSON schema for one node of kdv's resolved schema.
func convert(v any, strict bool) any {
	switch v := v.(type) {
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = convert(x, strict)
		}
		return out
	case map[string]any:
		return convertNode(v, strict)
	}
	return v
}

func convertNode(n map[string]any, strict bool) map[string]any {
	desc, hasDesc := n["description"]
	withDesc := func(m map[string]any) map[string]any {
		if hasDesc {
			m["description"] = desc
		}
		return m
	}
	preserve := n["x-kubernetes-preserve-unknown-fields"] == true
	_, typed := n["type"]
	switch {
	case n["x-kubernetes-int-or-string"] == true:
		return withDesc(map[string]any{"oneOf": []any{
			map[string]any{"type": "string"}, map[string]any{"type": "integer"}}})
	case preserve && !typed && n["pattern"] != nil:
		// Quantity: openapi2jsonschema --kubernetes replaces its
		// definition with this (numbers are accepted by kubectl and
		// the apiserver alike).
		return withDesc(map[string]any{"oneOf": []any{
			map[string]any{"type": "string"}, map[string]any{"type": "number"}}})
	}
	out := map[string]any{}
	for k, x := range n {
		if strings.HasPrefix(k, "x-") || k == "nullable" {
			continue
		}
		switch k {
		case "properties", "patternProperties", "definitions":
			props := map[string]any{}
			for name, p := range x.(map[string]any) {
				props[name] = convert(p, strict)
			}
			out[k] = props
		case "enum":
			out[k] = uniqueValues(x.([]any))
		case "default", "example", "required":
			out[k] = x // values, not schemas
		default:
			out[k] = convert(x, strict)
		}
	}
	if n["nullable"] == true {
		allowNull(out)
	}
	if props, ok := out["properties"].(map[string]any); ok {
		required := map[string]bool{}
		if req, ok := out["required"].([]any); ok {
			for _, r := range req {
				if s, ok := r.(string); ok {
					required[s] = true
				}
			}
		}
		for name, p := range props {
			if !required[name] {
				allowNull(p.(map[string]any))
			}
		}
		if _, set := out["additionalProperties"]; strict && !set && !preserve {
			out["additionalProperties"] = false
		}
	}
	return out
}

// uniqueValues drops repeated enum values: Kubernetes' OpenAPI lists
// Service externalTrafficPolicy as [Cluster, Cluster, Local, Local] (two Go
// constants per value), JSON schema requires unique enum items, and
// kubeconform treats a schema that does not compile as missing.
func uniqueValues(vals []any) []any {
	seen := map[string]bool{}
	var out []any
	for _, v := range vals {
		key, _ := json.Marshal(v)
		if !seen[string(key)] {
			seen[string(key)] = true
			out = append(out, v)
		}
	}
	return out
}

// allowNull adds "null" to a schema's type (or its oneOf branches' types),
// as openapi2jsonschema --expanded does for optional fields.
func allowNull(s map[string]any) {
	switch t := s["type"].(type) {
	case string:
		if t != "null" {
			s["type"] = []any{t, "null"}
		}
		return
	}
	if branches, ok := s["oneOf"].([]any); ok {
		for _, b := range branches {
			if bm, ok := b.(map[string]any); ok {
				allowNull(bm)
			}
		}
	}
}

// pin restricts a root property (apiVersion or kind) to one value, as
// openapi2jsonschema --kubernetes does from x-kubernetes-group-version-kind.
func pin(s map[string]any, prop, value string) {
	props, _ := s["properties"].(map[string]any)
	p, ok := props[prop].(map[string]any)
	if !ok {
		return
	}
	p["enum"] = []any{value}
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "kcschemas:", err)
		os.Exit(1)
	}
}
