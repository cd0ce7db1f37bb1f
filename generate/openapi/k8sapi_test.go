package openapi

import (
	"encoding/json"
	"fmt"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"kdv.dev/idl"
	"kdv.dev/schema"
	"kdv.dev/schema/refs"
)

var (
	k8sOnce sync.Once
	k8sRes  *Result
	k8sErr  error
)

// k8sAPI generates schemas for all of k8s.io/api (the module version in
// go.mod) once per test binary.
func k8sAPI(t *testing.T) *Result {
	t.Helper()
	if testing.Short() {
		t.Skip("loads all of k8s.io/api")
	}
	k8sOnce.Do(func() {
		u, err := idl.Load(idl.Options{}, "k8s.io/api/...")
		if err != nil {
			k8sErr = err
			return
		}
		k8sRes, k8sErr = Generate(u, Options{DeclarativeRatcheting: true})
	})
	if k8sErr != nil {
		t.Fatal(k8sErr)
	}
	return k8sRes
}

func TestK8sAPISmoke(t *testing.T) {
	res := k8sAPI(t)
	d := res.Definition("io.k8s.api.apps.v1.Deployment")
	if d == nil {
		for _, d := range res.Documents {
			t.Log(d.GroupVersion(), len(d.Schemas), len(d.Kinds))
		}
		t.Fatal("no Deployment")
	}
	b, _ := json.MarshalIndent(d, "", "  ")
	if os.Getenv("KDV_DUMP") != "" {
		t.Log(string(b))
		for _, n := range strings.Split(os.Getenv("KDV_DUMP"), ",") {
			b, _ := json.MarshalIndent(res.Definition(n), "", "  ")
			t.Log(n, string(b))
		}
		var sb strings.Builder
		res.Report.Write(&sb)
		t.Log(sb.String())
	}
}

// TestK8sAPIKindsRegistered checks that every type k8s.io/api registers in
// a register.go (addKnownTypes) has a schema with its group-version-kind.
func TestK8sAPIKindsRegistered(t *testing.T) {
	res := k8sAPI(t)
	re := regexp.MustCompile(`&(\w+)\{\}`)
	total := 0
	for _, d := range res.Documents {
		dir := filepath.Join(modDir(t, "k8s.io/api"), strings.TrimPrefix(d.Package, "k8s.io/api/"))
		src, err := os.ReadFile(filepath.Join(dir, "register.go"))
		if err != nil {
			continue
		}
		kinds := map[string]bool{}
		for _, k := range d.Kinds {
			kinds[k.Kind] = true
		}
		for _, m := range re.FindAllStringSubmatch(string(src), -1) {
			name := m[1]
			if name == "DeleteOptions" || name == "Status" || name == "Scheme" {
				continue
			}
			total++
			if !kinds[name] {
				t.Errorf("%s: registered kind %s has no schema", d.GroupVersion(), name)
				continue
			}
			def := d.Schemas[DefinitionName(d.Package, name)]
			if def == nil || def.Extra["x-kubernetes-group-version-kind"] == nil {
				t.Errorf("%s: %s lacks x-kubernetes-group-version-kind", d.GroupVersion(), name)
			}
		}
	}
	if total < 300 {
		t.Errorf("only %d registered kinds found", total)
	}
	t.Logf("%d registered kinds have schemas", total)
}

// TestK8sAPITagReport prints the per-tag counts and checks that every
// +k8s: tag in k8s.io/api's types.go files is accounted for (published or
// reported), none silently dropped.
func TestK8sAPITagReport(t *testing.T) {
	res := k8sAPI(t)
	var sb strings.Builder
	res.Report.Write(&sb)
	t.Log("\n" + sb.String())
	for name, c := range res.Report.Tags {
		if c.Published+c.Reported == 0 {
			t.Errorf("tag %s counted with no outcome", name)
		}
	}
	for _, must := range []string{"immutable", "update", "unionMember", "format", "maxItems", "beta", "alpha", "ifEnabled", "customValidation", "eachVal", "subfield", "item", "monotonic"} {
		c := res.Report.Tags[must]
		if c == nil || c.Published+c.Reported == 0 {
			t.Errorf("tag %s never seen", must)
		}
	}
	if c := res.Report.Tags["customValidation"]; c == nil || c.Published != 0 || c.Reported == 0 {
		t.Errorf("customValidation must be reported, not published: %+v", c)
	}
}

// TestK8sAPIFixtures walks k8s.io/api's round-trip fixtures
// (testdata/HEAD/*.json) against the resolved schema of their kind: every
// field must be known and of the schema's type.
func TestK8sAPIFixtures(t *testing.T) {
	res := k8sAPI(t)
	dir := filepath.Join(modDir(t, "k8s.io/api"), "testdata", "HEAD")
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) == 0 {
		t.Skip("no fixtures")
	}
	byGV := map[string]*Document{}
	for _, d := range res.Documents {
		byGV[d.GroupVersion()] = d
	}
	checked := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var obj map[string]any
		if err := json.Unmarshal(b, &obj); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		// file names are <group>.<version>.<Kind>.json, group "core" for ""
		base := strings.TrimSuffix(filepath.Base(f), ".json")
		i := strings.LastIndex(base, ".")
		kind := base[i+1:]
		j := strings.LastIndex(base[:i], ".")
		gv := base[j+1 : i]
		if g := base[:j]; g != "core" {
			gv = g + "/" + gv
		}
		d := byGV[gv]
		if d == nil {
			t.Errorf("%s: no document for %s", filepath.Base(f), gv)
			continue
		}
		name := ""
		for _, k := range d.Kinds {
			if k.Kind == kind {
				name = k.Definition
			}
		}
		if name == "" {
			t.Errorf("%s: no kind %s in %s", filepath.Base(f), kind, gv)
			continue
		}
		s, err := refs.Resolve(d.Schemas, name)
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
			continue
		}
		for _, e := range walkValue(s, obj, "") {
			t.Errorf("%s: %s", filepath.Base(f), e)
		}
		checked++
	}
	t.Logf("%d fixtures accepted", checked)
}

// walkValue checks v's structure against a resolved schema: unknown fields
// and type mismatches.
func walkValue(s *schema.Props, v any, path string) []string {
	if v == nil {
		return nil
	}
	if s.XIntOrString {
		switch v.(type) {
		case string, float64:
			return nil
		}
		if s.AnyOf == nil { // Quantity
			return nil
		}
		return []string{fmt.Sprintf("%s: want int or string, got %T", path, v)}
	}
	preserve := s.XPreserveUnknownFields != nil && *s.XPreserveUnknownFields
	switch s.Type {
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: want object, got %T", path, v)}
		}
		var errs []string
		for k, x := range m {
			if p, ok := s.Properties[k]; ok {
				errs = append(errs, walkValue(&p, x, path+"."+k)...)
			} else if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
				errs = append(errs, walkValue(s.AdditionalProperties.Schema, x, path+"."+k)...)
			} else if !preserve && (s.AdditionalProperties == nil || !s.AdditionalProperties.Allows) {
				errs = append(errs, fmt.Sprintf("%s: unknown field %q", path, k))
			}
		}
		return errs
	case "array":
		l, ok := v.([]any)
		if !ok {
			return []string{fmt.Sprintf("%s: want array, got %T", path, v)}
		}
		var errs []string
		for i, x := range l {
			errs = append(errs, walkValue(s.Items.Schema, x, fmt.Sprintf("%s[%d]", path, i))...)
		}
		return errs
	case "string":
		if _, ok := v.(string); !ok {
			return []string{fmt.Sprintf("%s: want string, got %T", path, v)}
		}
	case "integer":
		if f, ok := v.(float64); !ok || f != float64(int64(f)) {
			return []string{fmt.Sprintf("%s: want integer, got %v", path, v)}
		}
	case "number":
		if _, ok := v.(float64); !ok {
			return []string{fmt.Sprintf("%s: want number, got %T", path, v)}
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return []string{fmt.Sprintf("%s: want boolean, got %T", path, v)}
		}
	case "":
		if !preserve {
			return []string{fmt.Sprintf("%s: schema without type", path)}
		}
	}
	return nil
}

// modDir finds a module's directory in the module cache through go list.
func modDir(t *testing.T, mod string) string {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", mod).Output()
	if err != nil {
		t.Skipf("go list -m %s: %v", mod, err)
	}
	return strings.TrimSpace(string(out))
}

// TestK8sAPIEveryTagHandled greps every +k8s: tag line of k8s.io/api's
// types.go files and checks the generator handled it (published or
// reported) at least once.
func TestK8sAPIEveryTagHandled(t *testing.T) {
	res := k8sAPI(t)
	root := modDir(t, "k8s.io/api")
	files, _ := filepath.Glob(filepath.Join(root, "*", "*", "types.go"))
	re := regexp.MustCompile(`^\s*//\s*\+k8s:([a-zA-Z]+)`)
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			m := re.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			if tg, err := idl.ParseTag(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "//")), token.Position{}); err != nil || tg == nil {
				continue // other generators' tags (deepcopy, prerelease-lifecycle, ...)
			}
			n++
			key := fmt.Sprintf("%s:%d", f, i+1)
			if res.Report.Seen[key] == 0 {
				t.Errorf("%s: %s: not handled", key, strings.TrimSpace(line))
			}
		}
	}
	t.Logf("%d +k8s: tag lines handled", n)
	if n < 1000 {
		t.Errorf("only %d tag lines found", n)
	}
}

// TestDependencyDefaults generates apps/v1 alone: core/v1 is then a
// dependency, and its +default=ref(Const) tags must still resolve.
func TestDependencyDefaults(t *testing.T) {
	if testing.Short() {
		t.Skip("loads k8s.io/api/apps/v1")
	}
	u, err := idl.Load(idl.Options{}, "k8s.io/api/apps/v1")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Generate(u, Options{})
	if err != nil {
		t.Fatal(err)
	}
	d := res.Definition("io.k8s.api.core.v1.AzureDiskVolumeSource")
	if d == nil || d.Properties["kind"].Default == nil || d.Properties["kind"].Default.Object != "Shared" {
		t.Errorf("AzureDiskVolumeSource.kind default: %+v", d)
	}
}

// TestUniqueKeys: several +uniqueKey tags of the rule overlay on one list
// are published as one x-kubernetes-unique-key, the keys joined by ";" in
// the overlay's order, a repeated key once.
func TestUniqueKeys(t *testing.T) {
	if testing.Short() {
		t.Skip("loads k8s.io/api/core/v1")
	}
	ov, err := idl.ParseOverlay("x.tags", []byte(`package k8s.io/api/core/v1
source k8s.io/kubernetes pkg/apis/core/validation/validation.go ValidateVolumeDevices
Container.volumeDevices +uniqueKey=name
Container.volumeDevices +uniqueKey=devicePath
Container.volumeDevices +uniqueKey=name
Container.ports +uniqueKey=name
`))
	if err != nil {
		t.Fatal(err)
	}
	u, err := idl.Load(idl.Options{Overlays: []*idl.Overlay{ov}}, "k8s.io/api/core/v1")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Generate(u, Options{})
	if err != nil {
		t.Fatal(err)
	}
	d := res.Definition("io.k8s.api.core.v1.Container")
	if d == nil {
		t.Fatal("no Container")
	}
	if got := d.Properties["volumeDevices"].XUniqueKey; got != "name;devicePath" {
		t.Errorf("volumeDevices: x-kubernetes-unique-key %q, want name;devicePath", got)
	}
	if got := d.Properties["ports"].XUniqueKey; got != "name" {
		t.Errorf("ports: x-kubernetes-unique-key %q, want name", got)
	}
}

// TestK8sAPIDeclarativeRatcheting: a validation-gen value validation of
// k8s.io/api that is not wrapped in +k8s:alpha or +k8s:beta ratchets on
// update (validation-gen skips unchanged values), so its property carries
// x-kubernetes-ratcheting; one wrapped in +k8s:beta (the hand-written check
// still decides: a ReplicationController's name format) and a field
// without validation-gen tags (the hand-written checks repeat on every
// update) do not.
func TestK8sAPIDeclarativeRatcheting(t *testing.T) {
	res := k8sAPI(t)
	prop := func(def, name string) schema.Props {
		t.Helper()
		d := res.Definition(def)
		if d == nil {
			t.Fatalf("no %s", def)
		}
		p, ok := d.Properties[name]
		if !ok {
			t.Fatalf("no %s.%s", def, name)
		}
		return p
	}
	for _, tc := range []struct {
		def, name string
		want      bool
	}{
		{"io.k8s.api.core.v1.PodSpec", "evictionResponders", true},
		{"io.k8s.api.core.v1.ReplicationController", "metadata", false},
		{"io.k8s.api.apps.v1.DeploymentSpec", "replicas", false},
	} {
		got, _ := prop(tc.def, tc.name).Extra[schema.XRatcheting].(bool)
		if got != tc.want {
			t.Errorf("%s.%s: %s %v, want %v", tc.def, tc.name, schema.XRatcheting, got, tc.want)
		}
	}
}
