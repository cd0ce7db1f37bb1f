package schema

import (
	"fmt"
	"net/url"
	"strings"

	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validateWebhookClientConfig checks a conversion webhook's clientConfig as
// validateCustomResourceConversion does, with the url and service rules of
// ValidateWebhookURL and ValidateWebhookService (k8s.io/apiserver
// pkg/util/webhook/validation.go); the service port defaults to 443
// (SetDefaults_ServiceReference). caBundle is not checked on create.
func validateWebhookClientConfig(cc map[string]any, fldPath *field.Path) field.ErrorList {
	_, hasURL := cc["url"]
	svc, hasSvc := cc["service"].(map[string]any)
	switch {
	case hasURL == hasSvc:
		return field.ErrorList{field.Required(fldPath, "exactly one of url or service is required")}
	case hasURL:
		u, _ := cc["url"].(string)
		return validateWebhookURL(fldPath.Child("url"), u)
	default:
		port := int64(443)
		switch p := svc["port"].(type) {
		case int64:
			port = p
		case float64:
			port = int64(p)
		}
		var path *string
		if p, ok := svc["path"].(string); ok {
			path = &p
		}
		// validateCustomResourceConversion passes (name, namespace) to
		// ValidateWebhookService(fldPath, namespace, name, ...): a missing
		// name is reported as namespace and vice versa. Kept for fidelity.
		return validateWebhookService(fldPath.Child("service"), str(svc, "name"), str(svc, "namespace"), path, port)
	}
}

func validateWebhookURL(fldPath *field.Path, raw string) field.ErrorList {
	var allErrs field.ErrorList
	const form = "; desired format: https://host[/path]"
	u, err := url.Parse(raw)
	if err != nil {
		return field.ErrorList{field.Required(fldPath, "url must be a valid URL: "+err.Error()+form)}
	}
	if u.Scheme != "https" {
		allErrs = append(allErrs, field.Invalid(fldPath, u.Scheme, "'https' is the only allowed URL scheme"+form))
	}
	if len(u.Host) == 0 {
		allErrs = append(allErrs, field.Invalid(fldPath, u.Host, "host must be specified"+form))
	}
	if u.User != nil {
		allErrs = append(allErrs, field.Invalid(fldPath, u.User.String(), "user information is not permitted in the URL"))
	}
	if len(u.Fragment) != 0 {
		allErrs = append(allErrs, field.Invalid(fldPath, u.Fragment, "fragments are not permitted in the URL"))
	}
	if len(u.RawQuery) != 0 {
		allErrs = append(allErrs, field.Invalid(fldPath, u.RawQuery, "query parameters are not permitted in the URL"))
	}
	return allErrs
}

func validateWebhookService(fldPath *field.Path, namespace, name string, path *string, port int64) field.ErrorList {
	var allErrs field.ErrorList
	if len(name) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("name"), ""))
	}
	if len(namespace) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("namespace"), ""))
	}
	if errs := utilvalidation.IsValidPortNum(int(port)); errs != nil {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("port"), int32(port), "port is not valid: "+strings.Join(errs, ", ")))
	}
	if path == nil {
		return allErrs
	}
	urlPath := *path
	if urlPath == "/" || len(urlPath) == 0 {
		return allErrs
	}
	if urlPath == "//" {
		return append(allErrs, field.Invalid(fldPath.Child("path"), urlPath, "segment[0] may not be empty"))
	}
	if !strings.HasPrefix(urlPath, "/") {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("path"), urlPath, "must start with a '/'"))
	}
	check := urlPath[1:]
	check = strings.TrimSuffix(check, "/")
	for i, step := range strings.Split(check, "/") {
		if len(step) == 0 {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("path"), urlPath, fmt.Sprintf("segment[%d] may not be empty", i)))
			continue
		}
		for _, failure := range utilvalidation.IsDNS1123Subdomain(step) {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("path"), urlPath, fmt.Sprintf("segment[%d]: %v", i, failure)))
		}
	}
	return allErrs
}
