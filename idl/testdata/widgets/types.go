// Package widgets is a test API package for kdv's idl loader.
//
// +groupName=widgets.example.com
// +versionName=v1
package widgets

// Identifier is a DNS label.
// +k8s:format=k8s-short-name
// +maxLength=63
type Identifier string

// PartID is an identifier of a part.
// +validationRule="!self.startsWith('x-')",message="must not start with x-"
type PartID = Identifier

// Component is a part of a widget.
// +kubebuilder:validation:XValidation:rule="self != 'none'",message="none is reserved"
type Component PartID

// Phase is the phase of a widget.
// +enum
type Phase string

const (
	// PhasePending means not started.
	PhasePending Phase = "Pending"
	// PhaseRunning means running.
	PhaseRunning Phase = "Running"
)

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// Widget is a widget.
//
// It has two paragraphs.
// ---
// Hidden text.
type Widget struct {
	// Name of the widget.
	// +required
	Name string `json:"name"`

	// Component is the main component.
	// +optional
	Component Component `json:"component,omitempty"`

	// Parts are the widget's parts.
	// +k8s:listType=map
	// +k8s:listMapKey=name
	// +k8s:beta(since: "1.37")=+k8s:maxItems=16
	// +k8s:eachVal=+k8s:immutable
	Parts []Part `json:"parts,omitempty"`

	Inner `json:",inline"`

	ignored int

	Skipped string `json:"-"`

	// Phase is the phase.
	Phase *Phase `json:"phase,omitempty"`
}

// Inner is inlined.
type Inner struct {
	// Labels are labels.
	// +k8s:eachKey=+k8s:format=k8s-label-key
	Labels map[string]string `json:"labels,omitempty"`
}

// Part is a part.
type Part struct {
	// +k8s:required
	Name PartID `json:"name"`
}
