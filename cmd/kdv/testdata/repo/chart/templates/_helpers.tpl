{{- define "app.name" -}}app{{- end }}
