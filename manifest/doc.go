// Package manifest reads Kubernetes manifests (files, directories and stdin) into documents,
// decoding values exactly as kubectl and the kube-apiserver decode them, and keeping enough
// of the source to point reports at the file and line of any field.
//
// # Sources
//
// [Read] accepts files, directories and "-" for stdin. Directories are walked recursively in
// lexical order and only files ending in ".yaml", ".yml" or ".json" are read (kubectl's
// FileExtensions, case-sensitive as in kubectl); a file named explicitly is read whatever its
// extension. Symbolic links are followed, to directories too, as find -L follows them; a link
// to a directory being walked (a loop) is reported and not entered again. A directory holding
// no such file at all is an error: it is almost always a wrong path, not an empty input.
//
// # Splitting
//
// A file is a JSON stream when its first non-space byte is '{' (apimachinery's IsJSONBuffer,
// as used by yaml.NewYAMLOrJSONDecoder); otherwise it is split into YAML documents the way
// k8s.io/apimachinery/pkg/util/yaml.YAMLReader does: a line that begins with "---" ends a
// document; only spaces and a comment may follow the "---" (anything else is reported as
// "invalid Yaml document separator", as kubectl does, and reading goes on after it). A leading
// UTF-8 byte order mark is dropped. CRLF line endings are accepted. A "..." marker ends a
// document's content; text after it up to the next "---" is ignored, as the YAML decoder
// behind kubectl ignores it.
//
// Documents that are empty, contain only comments, or decode to null (for example "null" or
// "~") are skipped, as kubectl skips them (cli-runtime's StreamVisitor). Document indexes count
// the remaining documents only, so Index is the 0-based position among the documents kubectl
// would send; a document that fails to decode still takes an index.
//
// # Decoding
//
// Documents are decoded as kubectl decodes them before sending them to the apiserver as JSON.
// YAML goes through sigs.k8s.io/yaml.YAMLToJSON (YAML 1.1 via go.yaml.in/yaml/v2, as the
// apiserver's YAML serializer) and the JSON through sigs.k8s.io/json's case-sensitive,
// int-preserving decoder (k8s.io/apimachinery/pkg/util/json.Unmarshal): integers become int64,
// other numbers float64, as in unstructured objects on the apiserver. The YAML 1.1 rules
// come along: yes/no/on/off/y/n are booleans (also as keys), 012 is octal, a whole float such
// as 1.0 becomes the integer 1, .nan cannot be decoded. JSON values are decoded as JSON (1.0
// stays a float), as the apiserver decodes a JSON request body.
//
// A repeated key keeps its last value and is a warning on the document (Document.Warnings),
// not an error: `line 12: key "selector" already set in map; the last value is used, as
// kubectl sends it` for YAML, `line 2: duplicate field "metadata.name"; ...` for JSON, one
// per repeat (at most 100, then one counting the rest), at the repeated key, sorted by line.
// The apiserver's strict decoding would reject the document if it received it as written
// (those are its messages), but kubectl and helm decode the file themselves and send JSON in
// which only the last value is left, which the apiserver accepts even with
// fieldValidation=Strict (kubernetes/kubernetes#89303, #99286, #125885). Decoding finds the
// repeats by running the strict decoders (YAMLToJSONStrict, sigs.k8s.io/json.UnmarshalStrict
// with DisallowDuplicateFields) first; every other decode problem stays an error.
//
// Most manifests are written in a simple subset of YAML (block collections, one-line flow
// collections, plain, quoted and block scalars, comments). Such documents are decoded by a
// faster decoder of that subset which produces the very same values; anything outside it,
// every document with a repeated key and every document with an error goes through the
// decoders above.
//
// # Limits
//
// A document over Options.MaxDocumentBytes (default 3 MiB, the apiserver's
// MaxRequestBodyBytes) is an error. Nesting is bounded at 10000 levels by the YAML and JSON
// decoders themselves ("exceeded max depth of 10000"). Alias expansion is bounded twice: by
// the YAML decoder's alias ratio check ("document contains excessive aliasing") and by
// Options.MaxExpandedBytes, which catches aliases of large values that stay under that ratio.
//
// # Errors
//
// Nothing is lost: a bad document becomes a [Document] whose Err is an [*Error] naming the
// file, document index and absolute line, and reading continues with the next document and
// the next file. What decodes but should be fixed (a repeated key) is in Document.Warnings.
package manifest
