package v1

import (
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Identifier is a DNS label.
// +k8s:format=k8s-short-name
// +maxLength=63
type Identifier string

// PartID identifies a part.
// +validationRule="!self.startsWith('x-')",message="must not start with x-"
type PartID = Identifier

// Component is a part of a widget.
// +kubebuilder:validation:XValidation:rule="self != 'none'",message="none is reserved"
type Component PartID

// Color is a color.
// +enum
type Color string

const (
	// ColorRed is red.
	ColorRed Color = "Red"
	// ColorBlue is blue.
	ColorBlue Color = "Blue"
)

// Widget is a sample custom resource.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:path=widgets,scope=Namespaced,shortName={wd,wdg},categories=all,singular=widget
// +kubebuilder:subresource:status
// +kubebuilder:subresource:scale:specpath=.spec.replicas,statuspath=.status.replicas,selectorpath=.status.selector
// +kubebuilder:printcolumn:name="Color",type=string,JSONPath=".spec.color",description="The color"
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=".metadata.creationTimestamp",priority=1
// +kubebuilder:storageversion
// +kubebuilder:selectablefield:JSONPath=".spec.color"
// +kubebuilder:metadata:annotations="example.com/owner=team-a"
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the desired state.
	// +required
	Spec WidgetSpec `json:"spec"`
	// Status is the observed state.
	// +optional
	Status WidgetStatus `json:"status,omitempty"`
}

// WidgetList is a list of widgets.
//
// +kubebuilder:object:root=true
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Widget `json:"items"`
}

// WidgetSpec is the spec of a Widget.
// +kubebuilder:validation:ExactlyOneOf=small;large
// +kubebuilder:validation:AtMostOneOf=left;right
// +kubebuilder:validation:XValidation:rule="self.minReplicas <= self.replicas",message="replicas below minimum",reason=FieldValueForbidden,fieldPath=".replicas"
type WidgetSpec struct {
	// Replicas is the number of copies.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=100
	// +kubebuilder:default=1
	// +k8s:monotonic
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`

	// MinReplicas is the minimum.
	// +minimum=0
	// +exclusiveMaximum=50
	// +optional
	MinReplicas int32 `json:"minReplicas,omitempty"`

	// Ratio is a ratio.
	// +kubebuilder:validation:MultipleOf=0.5
	// +kubebuilder:validation:ExclusiveMinimum=true
	// +kubebuilder:validation:Minimum=0
	// +optional
	Ratio *float64 `json:"ratio,omitempty"`

	// Name is a name.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[a-z]([-a-z0-9]*[a-z0-9])?$`
	// +k8s:immutable
	// +required
	Name string `json:"name"`

	// Color is the color.
	// +default=ref(ColorRed)
	// +optional
	Color Color `json:"color,omitempty"`

	// Mode is a mode.
	// +kubebuilder:validation:Enum=Fast;Slow
	// +kubebuilder:example="Fast"
	// +optional
	Mode string `json:"mode,omitempty"`

	// Component is the main component (KEP-4153 chain: three rules).
	// +optional
	Component Component `json:"component,omitempty"`

	// Parts are the parts.
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=16
	// +kubebuilder:validation:MinItems=1
	// +k8s:update=NoRemoveItem
	// +optional
	Parts []Part `json:"parts,omitempty"`

	// Tags are tags.
	// +listType=set
	// +kubebuilder:validation:items:MaxLength=32
	// +kubebuilder:validation:UniqueItems=true
	// +optional
	Tags []string `json:"tags,omitempty"`

	// Labels are labels.
	// +mapType=granular
	// +kubebuilder:validation:MaxProperties=8
	// +kubebuilder:validation:MinProperties=1
	// +k8s:eachVal=+k8s:maxLength=63
	// +optional
	Labels map[string]string `json:"labels,omitempty"`

	// Size is a size.
	// +kubebuilder:validation:XIntOrString
	// +optional
	Size *intstr.IntOrString `json:"size,omitempty"`

	// Memory is a quantity.
	// +optional
	Memory *resource.Quantity `json:"memory,omitempty"`

	// Timeout is a duration.
	// +kubebuilder:validation:Format=duration
	// +optional
	Timeout string `json:"timeout,omitempty"`

	// Created is a time.
	// +optional
	Created *metav1.Time `json:"created,omitempty"`

	// Config is free-form.
	// +kubebuilder:pruning:PreserveUnknownFields
	// +kubebuilder:validation:Schemaless
	// +kubebuilder:validation:Type=object
	// +optional
	Config *runtime.RawExtension `json:"config,omitempty"`

	// Template is an embedded object.
	// +kubebuilder:validation:XEmbeddedResource
	// +kubebuilder:pruning:PreserveUnknownFields
	// +optional
	Template *runtime.RawExtension `json:"template,omitempty"`

	// Small is one union member.
	// +optional
	Small *Size `json:"small,omitempty"`
	// Large is the other union member.
	// +optional
	Large *Size `json:"large,omitempty"`
	// Left is one of at most one.
	// +optional
	Left *bool `json:"left,omitempty"`
	// Right is the other.
	// +optional
	Right *bool `json:"right,omitempty"`

	// Nullable may be null.
	// +nullable
	// +optional
	Nullable *string `json:"nullable,omitempty"`

	// Gated is behind a feature gate.
	// +featureGate=WidgetGates
	// +lifecycle:kubernetes:minVersion=v1.36,status=beta,featureGate=WidgetGates
	// +k8s:beta(since: "1.37")=+k8s:format=k8s-long-name
	// +optional
	Gated string `json:"gated,omitempty"`

	// Routing is a discriminated union.
	// +optional
	Routing *Routing `json:"routing,omitempty"`

	// Schedule is checked by hand-written code.
	// +k8s:customValidation
	// +k8s:update=NoSet
	// +optional
	Schedule string `json:"schedule,omitempty"`
}

// Size is a size.
type Size struct {
	// Value is the value.
	// +kubebuilder:validation:Minimum=1
	Value int64 `json:"value"`
}

// Routing selects one strategy.
type Routing struct {
	// Type selects the member.
	// +k8s:unionDiscriminator
	// +required
	Type string `json:"type"`
	// Direct routing.
	// +k8s:unionMember
	// +optional
	Direct *Size `json:"direct,omitempty"`
	// Proxy routing.
	// +k8s:unionMember(memberName: "ViaProxy")
	// +optional
	Proxy *Size `json:"proxy,omitempty"`
}

// Part is a part.
type Part struct {
	// Name names the part.
	// +required
	Name PartID `json:"name"`
	// Weight is the weight.
	// +kubebuilder:validation:Minimum=1
	// +optional
	Weight int32 `json:"weight,omitempty"`
}

// WidgetStatus is the status of a Widget.
type WidgetStatus struct {
	// Replicas observed.
	// +optional
	Replicas int32 `json:"replicas,omitempty"`
	// Selector for scale.
	// +optional
	Selector string `json:"selector,omitempty"`
	// Conditions of the widget.
	// +listType=map
	// +listMapKey=type
	// +k8s:item(type: "Ready")=+k8s:zeroOrOneOfMember
	// +k8s:item(type: "Failed")=+k8s:zeroOrOneOfMember
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}
