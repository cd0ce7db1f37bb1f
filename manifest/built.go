package manifest

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"

	yamlv3 "go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"
)

// Built is one object produced by building a directory (a kustomization built, a chart
// rendered) instead of reading its files.
type Built struct {
	// Via is the file that produced the object: the kustomization file or Chart.yaml.
	Via string
	// File is the file the object comes from (kustomize's origin), "" when unknown or
	// generated; documents are reported at this file, else at Via.
	File string
	// Data is the object as built, one YAML document; with Template, the template's whole
	// rendered output, which may hold several documents.
	Data []byte
	// Template is the Helm template the object was rendered from, as `helm template` names
	// it in its "# Source:" comments ("chart/templates/x.yaml"). Documents then keep the
	// lines of the rendered output (Data), as for `helm template | kdv validate -`: a
	// template's source lines and its output's lines differ wherever it branches or
	// includes, and the output is what was validated.
	Template string
}

// BuildFunc builds the directory dir when it is one its caller builds (a kustomization
// directory): handled says so, objs are the objects built, err why building failed (the
// directory's files are then not read either: they are not manifests on their own).
type BuildFunc func(dir string) (handled bool, objs []Built, err error)

// source is the document of Built.File that a built object comes from: lines are taken from
// it for the fields whose value the build left unchanged.
type source struct {
	doc *Document
}

// sourceOf returns the document of docs that the built object data comes from: the only
// one of its kind, or among several the one whose name is within the built name (kustomize
// adds prefixes and suffixes); nil when none fits.
func sourceOf(data []byte, docs []Document) *Document {
	var obj struct {
		Kind     string `json:"kind"`
		Metadata struct {
			Name string `json:"name"`
		} `json:"metadata"`
	}
	if sigsyaml.Unmarshal(data, &obj) != nil {
		return nil
	}
	var sameKind []*Document
	for i := range docs {
		if docs[i].Object != nil && docs[i].Item < 0 {
			if k, _ := docs[i].Object["kind"].(string); k == obj.Kind {
				sameKind = append(sameKind, &docs[i])
			}
		}
	}
	if len(sameKind) == 1 {
		return sameKind[0]
	}
	var best *Document
	for _, d := range sameKind {
		md, _ := d.Object["metadata"].(map[string]any)
		name, _ := md["name"].(string)
		if name == obj.Metadata.Name {
			return d
		}
		if name != "" && strings.Contains(obj.Metadata.Name, name) && best == nil {
			best = d
		}
	}
	return best
}

// sourcePosition returns the position of path in the source document when the built
// document has the same value there (the build left it as written), else 0, 0.
func (d *Document) sourcePosition(path string) (line, column int) {
	if d.src == nil || d.src.doc.pos == nil || d.pos == nil {
		return 0, 0
	}
	built, _ := d.pos.find(path)
	orig, key := d.src.doc.pos.find(path)
	if built == nil || orig == nil || !sameValue(built, orig) {
		return 0, 0
	}
	if key == nil {
		key = orig
	}
	return d.src.doc.pos.abs(key)
}

// sameValue reports whether two YAML nodes decode to the same value.
func sameValue(a, b *yamlv3.Node) bool {
	var va, vb any
	if a.Decode(&va) != nil || b.Decode(&vb) != nil {
		return false
	}
	return reflect.DeepEqual(va, vb)
}

// FirstFile returns the first of names that is a regular file in dir (the
// kustomization or Chart.yaml a BuildFunc looks for), or "" when none is.
func FirstFile(dir string, names ...string) string {
	for _, n := range names {
		p := filepath.Join(dir, n)
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() {
			return p
		}
	}
	return ""
}
