package defaulting

import (
	// The digest algorithms a reference may name are those registered
	// with crypto: k8s.io/kubernetes pkg/util/parsers imports these two
	// for the same reason, without them "image@sha256:..." does not parse.
	_ "crypto/sha256"
	_ "crypto/sha512"
	"sync"

	dockerref "github.com/distribution/reference"
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// ImageTag returns the tag the kubelet pulls for a container image
// reference, as k8s.io/kubernetes pkg/util/parsers ParseImageName returns
// it: the reference's tag; "latest" when it has neither a tag nor a
// digest; "" when it has only a digest, or does not parse (empty, upper
// case, a 64-character hexadecimal name, bad syntax, too long). The Go
// defaulter of Container.imagePullPolicy (SetDefaults_Container) makes it
// Always when this is "latest", IfNotPresent otherwise; defaulting
// expressions call it as imageTag(string) (ImageLibrary).
func ImageTag(image string) string {
	imageTags.Lock()
	t, ok := imageTags.m[image]
	imageTags.Unlock()
	if ok {
		return t
	}
	t = imageTag(image)
	imageTags.Lock()
	if len(imageTags.m) < maxImageTags {
		if imageTags.m == nil {
			imageTags.m = map[string]string{}
		}
		imageTags.m[image] = t
	}
	imageTags.Unlock()
	return t
}

// imageTags memoizes ImageTag, up to maxImageTags images: an input names
// the same few images in many documents, and parsing one (the reference
// grammar's regular expressions) costs more than the rest of defaulting
// a container. (A sync.Map suits reads of keys written once; an input of
// thousands of distinct images makes it copy its map again and again.)
var imageTags struct {
	sync.Mutex
	m map[string]string // image -> tag
}

const maxImageTags = 1 << 14

func imageTag(image string) string {
	named, err := dockerref.ParseNormalizedNamed(image)
	if err != nil {
		return ""
	}
	var tag, digest string
	if t, ok := named.(dockerref.Tagged); ok {
		tag = t.Tag()
	}
	if d, ok := named.(dockerref.Digested); ok {
		digest = d.Digest().String()
	}
	if tag == "" && digest == "" {
		return "latest"
	}
	return tag
}

// ImageLibrary is the CEL library of container image references that
// defaulting expressions (XDefaultExpression) may call:
//
//	imageTag(string) string: ImageTag
//
// It is not in the apiserver's CEL environment, so validation rules (CRD
// or built-in) cannot call it.
func ImageLibrary() cel.EnvOption {
	return cel.Function("imageTag",
		cel.Overload("imageTag_string", []*cel.Type{cel.StringType}, cel.StringType,
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				s, ok := v.(types.String)
				if !ok {
					return types.MaybeNoSuchOverloadErr(v)
				}
				return types.String(ImageTag(string(s)))
			})))
}
