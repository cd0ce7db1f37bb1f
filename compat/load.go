package compat

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"kdv.dev/manifest"
	"kdv.dev/schema"
)

// API is one side of a comparison: the CRDs and OpenAPI v3 schemas read
// from files and directories.
type API struct {
	// CRDs by metadata.name, with where each was read.
	CRDs map[string]*schema.CRD
	// CRDLocations are "file:line" of each CRD, by name.
	CRDLocations map[string]string
	// Kinds are the schemas of OpenAPI documents by group, version and kind
	// (x-kubernetes-group-version-kind). Schemas listing several kinds
	// (DeleteOptions, WatchEvent, ...) are not kinds of their own and are
	// left out.
	Kinds map[schema.GroupVersionKind]*schema.Structural
	// KindLocations name the file of each kind.
	KindLocations map[schema.GroupVersionKind]string
}

// MaxFileBytes bounds one input file; OpenAPI documents of a whole group
// are a few MB (see resource.MaxOpenAPIFileBytes).
const MaxFileBytes = 64 << 20

// Load reads CRDs and OpenAPI v3 (or Swagger 2.0) documents from files and
// directories (walked as manifest.Read walks them: .yaml, .yml, .json,
// symbolic links followed); "-" reads stdin. A file whose top level has an
// "openapi" or "swagger" key is an OpenAPI document; any other file is read
// as manifests, of which the CustomResourceDefinitions are used and other
// kinds ignored. One bad file or document does not stop the others: the
// error joins one entry per problem, naming file and line, and the API holds
// everything that could be read. A path holding neither a CRD nor an OpenAPI
// document is an error.
func Load(paths []string, stdin io.Reader) (*API, error) {
	api := NewAPI()
	var errs []error
	for _, p := range paths {
		before, errsBefore := len(api.CRDs)+len(api.Kinds), len(errs)
		var files []string
		if p == "-" {
			files = []string{"-"}
		} else {
			fs, err := manifest.FilesMatching([]string{p}, func(name string) bool {
				switch strings.ToLower(filepath.Ext(name)) {
				case ".json", ".yaml", ".yml":
					return true
				}
				return false
			})
			if err != nil {
				errs = append(errs, err)
			}
			files = fs
		}
		for _, f := range files {
			if err := api.loadFile(f, stdin); err != nil {
				errs = append(errs, err)
			}
		}
		if len(api.CRDs)+len(api.Kinds) == before && len(errs) == errsBefore {
			errs = append(errs, fmt.Errorf("%s: no CustomResourceDefinition or OpenAPI schema of a kind found", p))
		}
	}
	return api, errors.Join(errs...)
}

// NewAPI returns an empty API, to fill with AddCRD and AddOpenAPI.
func NewAPI() *API {
	return &API{
		CRDs: map[string]*schema.CRD{}, CRDLocations: map[string]string{},
		Kinds: map[schema.GroupVersionKind]*schema.Structural{}, KindLocations: map[schema.GroupVersionKind]string{},
	}
}

// AddCRD adds a CRD read (or generated) elsewhere; loc is "file:line" of
// where it comes from (line 0 when there is none). A second CRD of the same
// name is an error and is not added.
func (api *API) AddCRD(crd *schema.CRD, loc string) error {
	key := crd.Metadata.Name
	if key == "" {
		key = crd.Spec.Names.Plural + "." + crd.Spec.Group
	}
	if prev, ok := api.CRDLocations[key]; ok {
		return fmt.Errorf("%s: CustomResourceDefinition %s already read at %s; this one is ignored", loc, key, prev)
	}
	api.CRDs[key], api.CRDLocations[key] = crd, loc
	return nil
}

// AddOpenAPI adds the kinds of an OpenAPI v3 document (JSON or YAML) named
// name, as Load adds those of a file.
func (api *API) AddOpenAPI(name string, data []byte) error {
	doc, err := schema.LoadOpenAPIDocument(name, data)
	if err != nil {
		return err
	}
	return api.addDocument(name, doc)
}

var openAPIKey = regexp.MustCompile(`(?m)^(openapi|swagger)\s*:|^\s*\{\s*"(openapi|swagger)"\s*:|"(openapi|swagger)"\s*:\s*"[0-9]`)

func (api *API) loadFile(name string, stdin io.Reader) error {
	data, err := readBounded(name, stdin)
	if err != nil {
		return &manifest.Error{File: name, Index: -1, Item: -1, Msg: err.Error()}
	}
	if openAPIKey.Match(data) {
		if doc, err := schema.LoadOpenAPIDocument(name, data); err == nil {
			return api.addDocument(name, doc)
		}
	}
	var errs []error
	for _, d := range manifest.Parse(name, data, manifest.Options{}) {
		if d.Err != nil {
			errs = append(errs, d.Err)
			continue
		}
		apiVersion, _ := d.Object["apiVersion"].(string)
		kind, _ := d.Object["kind"].(string)
		if !schema.IsCRD(apiVersion, kind) {
			continue
		}
		loc := fmt.Sprintf("%s:%d", d.File, d.Line)
		crd, err := schema.ParseCRDObject(d.Object)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", loc, err))
			continue
		}
		if err := api.AddCRD(crd, loc); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func (api *API) addDocument(name string, doc *schema.Document) error {
	perName := map[string]int{}
	for _, g := range doc.GVKs() {
		perName[doc.NameForGVK(g)]++
	}
	var errs []error
	for _, g := range doc.GVKs() {
		if perName[doc.NameForGVK(g)] > 1 {
			continue
		}
		if prev, ok := api.KindLocations[g]; ok {
			errs = append(errs, fmt.Errorf("%s: %s already read from %s; this one is ignored", name, g, prev))
			continue
		}
		s, _, err := doc.SchemaForGVK(g)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %s: %w", name, g, err))
			continue
		}
		api.Kinds[g], api.KindLocations[g] = s, name
	}
	return errors.Join(errs...)
}

// readBounded reads a file (or stdin for "-") of at most MaxFileBytes.
func readBounded(name string, stdin io.Reader) ([]byte, error) {
	var r io.Reader
	if name == "-" {
		if stdin == nil {
			return nil, errors.New("no stdin")
		}
		r = stdin
	} else {
		f, err := os.Open(name)
		if err != nil {
			var pe *os.PathError
			if errors.As(err, &pe) {
				return nil, pe.Err
			}
			return nil, err
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("larger than %d MiB (compat.MaxFileBytes)", MaxFileBytes>>20)
	}
	return data, nil
}

// Result is the outcome of comparing two APIs.
type Result struct {
	// Changes in a deterministic order: by object, version, then the
	// schema's structure.
	Changes []Change
	// Errors are versions or kinds that could not be compared (a schema
	// that is not structural), each naming its object.
	Errors []error
	// Objects are the verdicts of CheckObjects on existing objects, when
	// they were checked (kdv compat --objects).
	Objects []ObjectResult
}

// Compare compares every CRD and OpenAPI kind of old with new: CRDs by
// name, kinds by group, version and kind.
func Compare(old, new *API) Result {
	var res Result
	for _, name := range sortedKeys(old.CRDs, new.CRDs) {
		o, n := old.CRDs[name], new.CRDs[name]
		switch {
		case n == nil:
			res.Changes = append(res.Changes, Change{Object: name, Kind: "crd-removed", Severity: BreaksObjects, Rule: ruleVersionRemoved, Old: name, Message: "CustomResourceDefinition removed: every version of it, and its objects, are gone"})
		case o == nil:
			res.Changes = append(res.Changes, Change{Object: name, Kind: "crd-added", Severity: Safe, Rule: ruleNewOptional, New: name, Message: "CustomResourceDefinition added"})
		default:
			cs, errs := CompareCRDs(o, n)
			res.Changes = append(res.Changes, cs...)
			res.Errors = append(res.Errors, errs...)
		}
	}
	res.Changes = append(res.Changes, compareKinds(old, new)...)
	sortChanges(res.Changes)
	for i := range res.Changes {
		locate(&res.Changes[i], old, new)
	}
	return res
}

// locate sets a change's File and Line from where its object was read in
// new, or in old when new lacks it.
func locate(c *Change, old, new *API) {
	for _, api := range []*API{new, old} {
		if loc, ok := api.CRDLocations[c.Object]; ok {
			i := strings.LastIndexByte(loc, ':')
			c.File = loc[:i]
			fmt.Sscan(loc[i+1:], &c.Line)
			return
		}
		for g, f := range api.KindLocations {
			if kindName(g) == c.Object && g.Version == c.Version {
				c.File = f
				return
			}
		}
	}
}

// compareKinds compares the OpenAPI kinds: a group/kind whose version is
// gone is a removed version, a group/kind gone entirely a removed kind.
func compareKinds(old, new *API) []Change {
	gks := map[string]bool{}
	for g := range new.Kinds {
		gks[kindName(g)] = true
	}
	var gvks []schema.GroupVersionKind
	seen := map[schema.GroupVersionKind]bool{}
	for g := range old.Kinds {
		gvks, seen[g] = append(gvks, g), true
	}
	for g := range new.Kinds {
		if !seen[g] {
			gvks = append(gvks, g)
		}
	}
	sort.Slice(gvks, func(i, j int) bool { return gvks[i].String() < gvks[j].String() })
	var out []Change
	for _, g := range gvks {
		o, n := old.Kinds[g], new.Kinds[g]
		obj := kindName(g)
		switch {
		case n == nil && !gks[obj]:
			out = append(out, Change{Object: obj, Version: g.Version, Kind: "kind-removed", Severity: BreaksObjects, Rule: ruleVersionRemoved, Old: g.String(), Message: "kind removed"})
		case n == nil:
			out = append(out, Change{Object: obj, Version: g.Version, Kind: "version-removed", Severity: BreaksObjects, Rule: ruleVersionRemoved, Old: g.Version, Message: fmt.Sprintf("version %s removed", g.Version)})
		case o == nil:
			out = append(out, Change{Object: obj, Version: g.Version, Kind: "version-added", Severity: Safe, Rule: ruleNewOptional, New: g.Version, Message: fmt.Sprintf("version %s added", g.Version)})
		default:
			out = append(out, CompareSchemas(obj, g.Version, o, n)...)
		}
	}
	return out
}

// kindName names a kind as Kind.group (Kind for the core group).
func kindName(g schema.GroupVersionKind) string {
	if g.Group == "" {
		return g.Kind
	}
	return g.Kind + "." + g.Group
}
