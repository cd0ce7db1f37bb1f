package idl

import (
	"go/token"
	"strings"
	"testing"
)

func TestParseTagK8s(t *testing.T) {
	tests := []struct{ in, want string }{
		{`+k8s:optional`, `optional`},
		{`+k8s:required`, `required`},
		{`+k8s:minimum=0`, `minimum=0`},
		{`+k8s:maximum=1000000000 # HighestUserDefinablePriority`, `maximum=1000000000`},
		{`+k8s:maxItems=-1`, `maxItems=-1`},
		{`+k8s:format=k8s-long-name`, `format=k8s-long-name`},
		{`+k8s:format="k8s-short-name"`, `format=k8s-short-name`},
		{`+k8s:listType=map`, `listType=map`},
		{`+k8s:update=NoModify`, `update=NoModify`},
		{`+k8s:unionMember`, `unionMember`},
		{`+k8s:unionMember(memberName: "Foo")`, `unionMember(memberName: "Foo")`},
		{`+k8s:beta(since: "1.37")=+k8s:optional`, `beta(since: "1.37")=+optional`},
		{`+k8s:alpha(since:"1.37")=+k8s:immutable`, `alpha(since: "1.37")=+immutable`},
		{`+k8s:beta(since: "1.37")=+k8s:subfield(name)=+k8s:format=k8s-long-name`, `beta(since: "1.37")=+subfield("name")=+format=k8s-long-name`},
		{`+k8s:ifEnabled("PodGroupPreemptionPolicy")=+k8s:optional`, `ifEnabled("PodGroupPreemptionPolicy")=+optional`},
		{`+k8s:ifDisabled(HPAScaleToZero)=+k8s:minimum=1`, `ifDisabled("HPAScaleToZero")=+minimum=1`},
		{`+k8s:beta(since: "1.37")=+k8s:item(type: "Approved")=+k8s:zeroOrOneOfMember`, `beta(since: "1.37")=+item(type: "Approved")=+zeroOrOneOfMember`},
		{`+k8s:eachKey=+k8s:format=k8s-short-name`, `eachKey=+format=k8s-short-name`},
		{`+k8s:eachVal=+k8s:maxBytes=64`, `eachVal=+maxBytes=64`},
		{`+k8s:dependentRequired("capacityKey")`, `dependentRequired("capacityKey")`},
		{`+k8s:item(name: "x", weight: 5)=+k8s:required`, `item(name: "x", weight: 5)=+required`},
		{"+k8s:format=`k8s-uuid`", `format=k8s-uuid`},
		{`+k8s:ifMode("Queue")=+k8s:required`, `ifMode("Queue")=+required`},
		{`+k8s:member("Queue")=+k8s:required`, `ifMode("Queue")=+required`},
		{`+k8s:discriminator`, `modeDiscriminator`},
		{`+k8s:eachVal=+validationError(keyword: "enum", message: "supported values: \"A\"")`, `eachVal=+validationError(keyword: "enum", message: "supported values: \"A\"")`},
	}
	for _, tt := range tests {
		tg, err := ParseTag(tt.in, token.Position{})
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		if tg.Syntax != SyntaxK8s {
			t.Errorf("%s: syntax %v", tt.in, tg.Syntax)
		}
		if got := tg.String(); got != tt.want {
			t.Errorf("%s: got %s want %s", tt.in, got, tt.want)
		}
	}
	tg, _ := ParseTag(`+k8s:beta(since: "1.37")=+k8s:subfield(name)=+k8s:format=k8s-long-name`, token.Position{})
	if v, _ := tg.Arg("since"); v != "1.37" || tg.Leaf().Name != "format" || tg.Payload.Args[0].Value != "name" {
		t.Errorf("chain: %+v", tg)
	}
}

func TestParseTagPlain(t *testing.T) {
	tests := []struct{ in, want string }{
		{`+optional`, `optional`},
		{`+required`, `required`},
		{`+minimum=1`, `minimum=1`},
		{`+maximum=2.5`, `maximum=2.5`},
		{`+exclusiveMinimum`, `exclusiveMinimum`},
		{`+maxLength=63`, `maxLength=63`},
		{`+format=dns1123label`, `format=k8s-short-name`},
		{`+nameFormat=dns1123subdomain`, `format=k8s-long-name`},
		{"+pattern=`^[a-z]+$`", `pattern=^[a-z]+$`},
		{`+pattern="^a\\.b$"`, `pattern=^a\.b$`},
		{`+enum`, `enum`},
		{`+listType=atomic`, `listType=atomic`},
		{`+listMapKey=name`, `listMapKey=name`},
		{`+mapType=granular`, `mapType=granular`},
		{`+structType=atomic`, `structType=atomic`},
		{`+default=ref(PhasePending)`, `default=ref(PhasePending)`},
		{`+default={"a": 1}`, `default={"a": 1}`},
		{`+default="x"`, `default="x"`},
		{`+featureGate=DRADeviceBindingConditions,DRAResourceClaimDeviceStatus`, `featureGate=DRADeviceBindingConditions,DRAResourceClaimDeviceStatus`},
		{`+union`, `union`},
		{`+unionDiscriminator`, `unionDiscriminator`},
		{`+oneOf=NodeSelection`, `oneOf=NodeSelection`},
		{`+groupName=apps`, `groupName=apps`},
		{`+patchStrategy=merge`, `patchStrategy=merge`},
		{`+validationRule="self.x > 0",message="x must be positive",reason=Forbidden,field="x"`,
			`validationRule(rule: "self.x > 0", message: "x must be positive", reason: "Forbidden", fieldPath: "x")`},
		{`+validationRule="a, b",messageExpression="'v: ' + self"`, `validationRule(rule: "a, b", messageExpression: "'v: ' + self")`},
		{`+validationError="minimum",message="must be greater than or equal to 0"`,
			`validationError(keyword: "minimum", message: "must be greater than or equal to 0")`},
	}
	for _, tt := range tests {
		tg, err := ParseTag(tt.in, token.Position{})
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		if got := tg.String(); got != tt.want {
			t.Errorf("%s: got %s want %s", tt.in, got, tt.want)
		}
	}
}

func TestParseTagKubebuilder(t *testing.T) {
	tests := []struct{ in, want string }{
		{`+kubebuilder:validation:Minimum=1`, `minimum=1`},
		{`+kubebuilder:validation:Maximum=10.5`, `maximum=10.5`},
		{`+kubebuilder:validation:ExclusiveMaximum=true`, `exclusiveMaximum=true`},
		{`+kubebuilder:validation:MaxLength=316`, `maxLength=316`},
		{"+kubebuilder:validation:Pattern=`^([a-z0-9])$`", `pattern=^([a-z0-9])$`},
		{`+kubebuilder:validation:Enum=Always;Never;IfNotPresent`, `enum("Always", "Never", "IfNotPresent")`},
		{`+kubebuilder:validation:Enum={"a","b"}`, `enum("a", "b")`},
		{`+kubebuilder:validation:Enum={"","a"}`, `enum("", "a")`},
		{`+kubebuilder:validation:Enum=a;;b;`, `enum("a", "b")`},
		{`+kubebuilder:validation:Format=date-time`, `format=date-time`},
		{`+kubebuilder:validation:Type=string`, `type=string`},
		{`+kubebuilder:validation:Required`, `required`},
		{`+kubebuilder:validation:Optional`, `optional`},
		{`+kubebuilder:validation:XPreserveUnknownFields`, `preserveUnknownFields`},
		{`+kubebuilder:pruning:PreserveUnknownFields`, `preserveUnknownFields`},
		{`+kubebuilder:validation:XEmbeddedResource`, `embeddedResource`},
		{`+kubebuilder:validation:XIntOrString`, `intOrString`},
		{`+kubebuilder:validation:Schemaless`, `schemaless`},
		{`+kubebuilder:validation:XValidation:rule="self.a == oldSelf.a",message="a is immutable",reason=FieldValueForbidden,fieldPath=".a"`,
			`validationRule(rule: "self.a == oldSelf.a", message: "a is immutable", reason: "FieldValueForbidden", fieldPath: ".a")`},
		{`+kubebuilder:validation:items:MaxLength=10`, `eachVal=+maxLength=10`},
		{`+kubebuilder:validation:items:items:Minimum=0`, `eachVal=+eachVal=+minimum=0`},
		{`+kubebuilder:validation:ExactlyOneOf=a;b`, `exactlyOneOf("a", "b")`},
		{`+kubebuilder:default={"x": 1}`, `default={"x": 1}`},
		{`+kubebuilder:default=Always`, `default=Always`},
		{`+kubebuilder:example="x"`, `example="x"`},
		{`+kubebuilder:object:root=true`, `objectRoot=true`},
		{`+kubebuilder:resource:scope=Cluster,shortName={wd,wdg},categories=all`, `resource(scope: "Cluster", shortName: "{wd,wdg}", categories: "all")`},
		{`+kubebuilder:subresource:status`, `subresourceStatus`},
		{`+kubebuilder:subresource:scale:specpath=.spec.replicas,statuspath=.status.replicas,selectorpath=.status.selector`,
			`subresourceScale(specpath: ".spec.replicas", statuspath: ".status.replicas", selectorpath: ".status.selector")`},
		{`+kubebuilder:printcolumn:name="Age",type="date",JSONPath=".metadata.creationTimestamp"`,
			`printColumn(name: "Age", type: "date", JSONPath: ".metadata.creationTimestamp")`},
		{`+kubebuilder:storageversion`, `storageVersion`},
		{`+kubebuilder:deprecatedversion:warning="use v2"`, `deprecatedVersion(warning: "use v2")`},
		{`+kubebuilder:selectablefield:JSONPath=".spec.color"`, `selectableField(JSONPath: ".spec.color")`},
		{`+lifecycle:kubernetes:minVersion=v1.20,status=beta,featureGate=Foo`,
			`lifecycle(component: "kubernetes", minVersion: "v1.20", status: "beta", featureGate: "Foo")`},
	}
	for _, tt := range tests {
		tg, err := ParseTag(tt.in, token.Position{})
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		if got := tg.String(); got != tt.want {
			t.Errorf("%s: got %s want %s", tt.in, got, tt.want)
		}
	}
}

func TestParseTagIgnored(t *testing.T) {
	for _, in := range []string{
		`+k8s:deepcopy-gen=package`, `+k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object`,
		`+k8s:prerelease-lifecycle-gen:introduced=1.9`, `+k8s:protobuf-gen=package`,
		`+k8s:conversion-gen:explicit-from=net/url.Values`, `+k8s:openapi-gen=true`,
		`+k8s:supportsSubresource="/status"`, `+k8s:deprecated=state,protobuf=3`,
		`+genclient:nonNamespacedX`, `+genclient:method=Foo`, `+protobuf.options.(gogoproto.goproto_stringer)=false`,
		`+protobuf.nullable=true`, `+build linux`, `+kubebuilder:object:generate=true`, `+kubebuilder:rbac:groups=x,verbs=get`,
		`+k8s:validation-gen-nolint // Note`,
	} {
		tg, err := ParseTag(in, token.Position{})
		if err != nil || tg != nil {
			t.Errorf("%s: got %v, %v; want ignored", in, tg, err)
		}
	}
	if tg, err := ParseTag(`+genclient:nonNamespaced`, token.Position{}); err != nil || tg.Name != "nonNamespaced" {
		t.Errorf("nonNamespaced: %v %v", tg, err)
	}
}

func TestParseTagErrors(t *testing.T) {
	pos := token.Position{Filename: "types.go", Line: 7}
	tests := []struct{ in, want string }{
		{`+k8s:nosuch`, "unknown tag +k8s:nosuch"},
		{`+k8s:minimum=abc`, `minimum: value "abc" is not a number`},
		{`+k8s:maxItems=abc`, `maxItems: value "abc" is not an integer`},
		{`+k8s:minimum`, "needs a numeric value"},
		{`+k8s:optional=true`, "takes no value"},
		{`+k8s:listType=bag`, `value "bag": want one of atomic, set, map`},
		{`+k8s:beta(since: "1.37")`, "needs a chained tag"},
		{`+k8s:beta(since: "1.37")=+k8s:nosuch`, "unknown tag +k8s:nosuch"},
		{`+k8s:beta("1.37")=+k8s:optional`, "arguments must be named"},
		{`+k8s:beta(1.37)=+k8s:optional`, "unexpected character"},
		{`+k8s:item(a: 1, 2)=+k8s:optional`, "can't mix named and positional arguments"},
		{`+k8s:subfield(a, b)=+k8s:optional`, "multiple arguments must use 'name: value' syntax"},
		{`+k8s:format="abc`, "unterminated string"},
		{`+k8s:subfield(name=+k8s:optional`, "unexpected"},
		{`+k8s:maxItems=`, "unexpected end of input"},
		{`+k8s:update=NoSet extra`, "unexpected character"},
		{`+nosuch=1`, "unknown tag +nosuch"},
		{`+minimum=x`, "not a number"},
		{`+listType=bag`, "want one of"},
		{`+validationRule=message="x"`, "missing argument \"rule\""},
		{`+kubebuilder:validation:Bogus=1`, "unknown marker +kubebuilder:validation:Bogus"},
		{`+kubebuilder:validation:MaxLength=x`, "not an integer"},
		{`+kubebuilder:validation:XValidation:message="x"`, `missing argument "rule"`},
		{`+kubebuilder:printcolumn:name="A"`, `missing argument "type"`},
		{`+kubebuilder:resource:nope=1`, `unknown argument "nope"`},
		{`+lifecycle:kubernetes:status=gamma`, "status \"gamma\""},
		{`+lifecycle:kubernetes:minVersion=1.20`, "want a version like v1.20"},
		{`+9`, "tag name must start with a letter"},
	}
	for _, tt := range tests {
		_, err := ParseTag(tt.in, pos)
		if err == nil {
			t.Errorf("%s: no error", tt.in)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "types.go:7: ") {
			t.Errorf("%s: error %q, want %q", tt.in, err, tt.want)
		}
	}
}

func TestDescription(t *testing.T) {
	tests := []struct {
		in   []string
		want string
	}{
		{[]string{"A b.", "c d."}, "A b. c d."},
		{[]string{"A.", "", "B."}, "A.\n\nB."},
		{[]string{"A.", "+optional", "TODO: x", "B."}, "A. B."},
		{[]string{"A.", "---", "hidden"}, "A."},
		{[]string{"Example:", "\tfoo: bar", "done"}, "Example:\n\tfoo: bar\ndone"},
	}
	for _, tt := range tests {
		if got := Description(tt.in); got != tt.want {
			t.Errorf("%q: got %q want %q", tt.in, got, tt.want)
		}
	}
}

func TestSplitList(t *testing.T) {
	got, err := SplitList(`{"a,b", c}`)
	if err != nil || len(got) != 2 || got[0] != "a,b" || got[1] != "c" {
		t.Errorf("got %q %v", got, err)
	}
	got, _ = SplitList("x;y")
	if len(got) != 2 {
		t.Errorf("got %q", got)
	}
}

func FuzzParseTag(f *testing.F) {
	for _, s := range []string{
		`+k8s:beta(since: "1.37")=+k8s:subfield(name)=+k8s:format=k8s-long-name`,
		`+k8s:item(name: "x", weight: 5)=+k8s:required`,
		`+validationRule="self.x > 0",message="m",reason=Forbidden`,
		`+kubebuilder:validation:XValidation:rule="a",message="b"`,
		`+kubebuilder:resource:scope=Cluster,shortName={a,b}`,
		`+lifecycle:kubernetes:minVersion=v1.2,status=beta`,
		"+pattern=`x`", `+k8s:format="a\"b"`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tg, err := ParseTag(s, token.Position{})
		if err != nil || tg == nil {
			return
		}
		// A parsed tag renders, and every chain element is canonical.
		_ = tg.String()
		for c := tg; c != nil; c = c.Payload {
			if _, ok := canonical[c.Name]; !ok {
				t.Fatalf("%q: non-canonical name %q", s, c.Name)
			}
		}
	})
}

func TestControllerGenDescription(t *testing.T) {
	tests := []struct {
		in   []string
		want string
	}{
		{[]string{"A b.", "c d."}, "A b.\nc d."},
		{[]string{"A.", "", "", "B."}, "A.\n\nB."},
		{[]string{"", "A.", "+optional", "TODO: x", "B.", ""}, "A.\nB."},
		{[]string{"A.", "---", "hidden"}, "A."},
		{[]string{"```", "---", "```", "x"}, "```\n---\n```\nx"},
	}
	for _, tt := range tests {
		if got := ControllerGenDescription(tt.in); got != tt.want {
			t.Errorf("%q: got %q want %q", tt.in, got, tt.want)
		}
	}
}
