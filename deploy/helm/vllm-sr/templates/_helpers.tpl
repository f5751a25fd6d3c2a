{{/* The chart's name, or nameOverride. */}}
{{- define "vllm-sr.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The prefix of every object's name: RELEASE-CHART, or fullnameOverride. */}}
{{- define "vllm-sr.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The labels every object carries. */}}
{{- define "vllm-sr.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "vllm-sr.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* The selector of one component (router, or a runtime's name): call with (list . "router"). */}}
{{- define "vllm-sr.selectorLabels" -}}
{{- $ := index . 0 -}}
app.kubernetes.io/name: {{ include "vllm-sr.name" $ }}
app.kubernetes.io/instance: {{ $.Release.Name }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end -}}

{{/* An image: (list . "repository"). */}}
{{- define "vllm-sr.image" -}}
{{- $ := index . 0 -}}
{{- printf "%s%s:%s" $.Values.image.registry (index . 1) (default $.Chart.AppVersion $.Values.image.tag) -}}
{{- end -}}

{{/* The Router's configuration file, rendered. */}}
{{- define "vllm-sr.routerConfig" -}}
{{- tpl (toYaml .Values.router.config) . -}}
{{- end -}}

{{/*
The Router's container ports, one a line as "name port": each listener's
(named after it) and admin_address's ("admin").
*/}}
{{- define "vllm-sr.routerPorts" -}}
{{- range .Values.router.config.listeners }}
{{ .name | lower | trunc 15 | trimSuffix "-" }} {{ splitList ":" .address | last }}
{{- end }}
{{- with .Values.router.config.admin_address }}
admin {{ splitList ":" . | last }}
{{- end }}
{{- end -}}

{{/* The port the probes and the scrape use: admin, or the first listener's. */}}
{{- define "vllm-sr.probePort" -}}
{{- if .Values.router.config.admin_address -}}
admin
{{- else -}}
{{- (first .Values.router.config.listeners).name | lower | trunc 15 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* The name of the Secret holding the key files, or "" for none. */}}
{{- define "vllm-sr.keysSecret" -}}
{{- if .Values.router.existingKeysSecret -}}
{{- .Values.router.existingKeysSecret -}}
{{- else if .Values.router.keys -}}
{{- printf "%s-keys" (include "vllm-sr.fullname" .) -}}
{{- end -}}
{{- end -}}
