{{/*
Shared helpers: names, labels, images, the merged settings of one service, the topic catalogue,
and the environment every service reads (packages/service-kit/src/env.ts).
*/}}

{{- define "stormhook.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "stormhook.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* Name of one service's objects: <fullname>-<service>; 40 + 1 + 13 stays inside 63. */}}
{{- define "stormhook.componentName" -}}
{{- printf "%s-%s" (include "stormhook.fullname" .root) .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "stormhook.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "stormhook.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: stormhook
{{- end -}}

{{/* Selector of one component (a service, or the test pod): stable across upgrades. */}}
{{- define "stormhook.selectorLabels" -}}
app.kubernetes.io/name: {{ include "stormhook.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{- define "stormhook.componentLabels" -}}
{{ include "stormhook.labels" .root }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{/*
Deep-merges .src into .dst in place. Unlike sprig's mergeOverwrite it keeps explicit false, 0 and
"" from .src (mergo skips those), so `services.x.pdb.enabled: false` really disables the PDB.
*/}}
{{- define "stormhook.deepMerge" -}}
{{- $dst := .dst -}}
{{- range $key, $value := .src -}}
{{- if and (kindIs "map" $value) (kindIs "map" (index $dst $key)) -}}
{{- include "stormhook.deepMerge" (dict "dst" (index $dst $key) "src" $value) -}}
{{- else -}}
{{- $_ := set $dst $key $value -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The settings of service .name: serviceDefaults overlaid with services.<name>, as YAML (use fromYaml). */}}
{{- define "stormhook.serviceValues" -}}
{{- $svc := deepCopy .root.Values.serviceDefaults -}}
{{- $own := index .root.Values.services .name | default dict -}}
{{- include "stormhook.deepMerge" (dict "dst" $svc "src" (deepCopy $own)) -}}
{{- if not $svc.port -}}
{{- fail (printf "services.%s.port is required" .name) -}}
{{- end -}}
{{- toYaml $svc -}}
{{- end -}}

{{- define "stormhook.serviceEnabled" -}}
{{- $own := index .root.Values.services .name | default dict -}}
{{- if hasKey $own "enabled" -}}{{ ternary "true" "" $own.enabled }}{{- else -}}{{ ternary "true" "" .root.Values.serviceDefaults.enabled }}{{- end -}}
{{- end -}}

{{/* Image reference: registry/repository, then @digest or :tag (service tag, global tag, appVersion). */}}
{{- define "stormhook.image" -}}
{{- $g := .root.Values.global.image -}}
{{- $repository := .svc.image.repository | default (printf "stormhook/%s" .name) -}}
{{- $base := ternary (printf "%s/%s" (trimSuffix "/" $g.registry) $repository) $repository (ne $g.registry "") -}}
{{- if .svc.image.digest -}}
{{- printf "%s@%s" $base .svc.image.digest -}}
{{- else -}}
{{- printf "%s:%s" $base (.svc.image.tag | default $g.tag | default .root.Chart.AppVersion | toString) -}}
{{- end -}}
{{- end -}}

{{/* The topic catalogue rendered from packages/kafka/src/topics.ts (use fromJson). */}}
{{- define "stormhook.topics" -}}
{{- $text := .Files.Get "files/topics.json" -}}
{{- if not $text -}}
{{- fail "files/topics.json is missing: regenerate it with `node tools/devstack/dist/deploy/cli.js topics`" -}}
{{- end -}}
{{- $text -}}
{{- end -}}

{{/* Which service calls which over gRPC, rendered from packages/grpc/src/edges.ts (use fromJson). */}}
{{- define "stormhook.grpcEdges" -}}
{{- $text := .Files.Get "files/grpc-edges.json" -}}
{{- if not $text -}}
{{- fail "files/grpc-edges.json is missing: regenerate it with `node tools/devstack/dist/deploy/cli.js grpc-edges`" -}}
{{- end -}}
{{- $text -}}
{{- end -}}

{{/* The TCP port an http(s) URL .url is fetched on: its own, else its scheme's; .what names it in the failure. */}}
{{- define "stormhook.urlPort" -}}
{{- $url := urlParse .url -}}
{{- $port := regexFind "[0-9]+$" (regexFind ":[0-9]+$" $url.host) -}}
{{- if not $port -}}{{- $port = get (dict "https" "443" "http" "80") $url.scheme -}}{{- end -}}
{{- if not $port -}}
{{- fail (printf "%s %q must be an http(s) URL" .what .url) -}}
{{- end -}}
{{- $port -}}
{{- end -}}

{{/* Where geo imports its boundaries from: STORMHOOK_GEO_SOURCE of services.geo.env, else of global.env. */}}
{{- define "stormhook.geoSource" -}}
{{- $geo := include "stormhook.serviceValues" (dict "root" . "name" "geo") | fromYaml -}}
{{- index ($geo.env | default dict) "STORMHOOK_GEO_SOURCE" | default (index .Values.global.env "STORMHOOK_GEO_SOURCE") | default "" | toString -}}
{{- end -}}

{{/* A topic's name on the broker, with global.topicPrefix (packages/kafka/src/topic-namer.ts). */}}
{{- define "stormhook.physicalTopic" -}}
{{- if .root.Values.global.topicPrefix -}}{{ printf "%s.%s" .root.Values.global.topicPrefix .topic }}{{- else -}}{{ .topic }}{{- end -}}
{{- end -}}

{{/* Kafka brokers as one comma-separated string; a list or a string is accepted. */}}
{{- define "stormhook.kafkaBrokers" -}}
{{- $brokers := .Values.kafka.brokers -}}
{{- if kindIs "string" $brokers -}}{{- $brokers = splitList "," $brokers | compact -}}{{- end -}}
{{- if not $brokers -}}
{{- fail "kafka.brokers is required: the bootstrap brokers of the Kafka cluster, e.g. --set 'kafka.brokers={my-cluster-kafka-bootstrap.kafka.svc:9092}'" -}}
{{- end -}}
{{- join "," $brokers -}}
{{- end -}}

{{/*
The widest partition count among the topics .svc.consumes, or 0 when it consumes none: replicas
beyond it sit idle in the consumer group.
*/}}
{{- define "stormhook.partitionBound" -}}
{{- $catalogue := dict -}}
{{- range (include "stormhook.topics" .root | fromJson).topics -}}
{{- $_ := set $catalogue .name (int .partitions) -}}
{{- end -}}
{{- $bound := 0 -}}
{{- range .svc.consumes -}}
{{- if not (hasKey $catalogue .) -}}
{{- fail (printf "services.%s.consumes names %q, which is not in the topic catalogue (files/topics.json)" $.name .) -}}
{{- end -}}
{{- $bound = max $bound (index $catalogue .) -}}
{{- end -}}
{{- $bound -}}
{{- end -}}

{{/*
Environment every service reads: platformEnv of packages/service-kit, its listener, the gRPC
addresses of its callees, then global.env and the service's env (which may override any plain value), then
the secrets (never overridable by plain values).
*/}}
{{- define "stormhook.env" -}}
{{- $root := .root -}}
{{- $plain := dict "KAFKA_BROKERS" (include "stormhook.kafkaBrokers" $root) "LOG_LEVEL" $root.Values.global.logLevel -}}
{{- with $root.Values.global.topicPrefix }}{{ $_ := set $plain "STORMHOOK_TOPIC_PREFIX" . }}{{ end -}}
{{- with $root.Values.global.dbPrefix }}{{ $_ := set $plain "STORMHOOK_DB_PREFIX" . }}{{ end -}}
{{- if $root.Values.otel.endpoint -}}
{{- $_ := set $plain "OTEL_EXPORTER_OTLP_ENDPOINT" $root.Values.otel.endpoint -}}
{{- $_ := set $plain "OTEL_SERVICE_NAME" .name -}}
{{- with $root.Values.otel.resourceAttributes }}{{ $_ := set $plain "OTEL_RESOURCE_ATTRIBUTES" . }}{{ end -}}
{{- end -}}
{{- if $root.Values.metrics.enabled }}{{ $_ := set $plain "METRICS_PORT" $root.Values.metrics.port }}{{ end -}}
{{- /* A service learns where exactly its callees listen (files/grpc-edges.json, from
     packages/grpc/src/edges.ts), the peers its NetworkPolicy lets it reach: no address of a service
     it may not call. */ -}}
{{- range $other := (index (include "stormhook.grpcEdges" $root | fromJson).services .name).calls -}}
{{- $otherSvc := include "stormhook.serviceValues" (dict "root" $root "name" $other) | fromYaml -}}
{{- $address := printf "%s:%v" (include "stormhook.componentName" (dict "root" $root "name" $other)) $otherSvc.port -}}
{{- $_ := set $plain (printf "%s_GRPC_ADDRESS" ($other | upper | replace "-" "_")) $address -}}
{{- end -}}
{{- if eq .name "gateway" -}}
{{- $_ := set $plain "HTTP_HOST" "0.0.0.0" -}}
{{- $_ := set $plain "HTTP_PORT" .svc.port -}}
{{- /* Behind the ingress every request comes from the controller: let its X-Forwarded-For name the client. */ -}}
{{- if $root.Values.ingress.enabled }}{{ $_ := set $plain "HTTP_TRUST_PROXY" $root.Values.ingress.trustProxy }}{{ end -}}
{{- else -}}
{{- /* The services default to 127.0.0.1 (a laptop); in a pod they must listen on the pod's address. */ -}}
{{- $_ := set $plain "GRPC_HOST" "0.0.0.0" -}}
{{- $_ := set $plain "GRPC_PORT" .svc.port -}}
{{- end -}}
{{- if and (eq .name "identity") .svc.allowedLinkOrigins }}{{ $_ := set $plain "STORMHOOK_ALLOWED_LINK_ORIGINS" (join "," .svc.allowedLinkOrigins) }}{{ end -}}
{{- range $key, $value := $root.Values.global.env }}{{ $_ := set $plain $key $value }}{{ end -}}
{{- range $key, $value := .svc.env }}{{ $_ := set $plain $key $value }}{{ end -}}
{{- range $key := keys $plain | sortAlpha }}
- name: {{ $key }}
  value: {{ index $plain $key | toString | quote }}
{{- end }}
- name: K8S_POD_NAME
  valueFrom:
    fieldRef:
      fieldPath: metadata.name
{{- if eq .name "query" }}
{{- /* query keeps its read models in memory: every replica must see every event, so each has a group
     of its own, named by query from its pod name (dead pods' groups expire with Kafka's
     offsets.retention.minutes). */}}
- name: QUERY_INSTANCE_ID
  value: "$(K8S_POD_NAME)"
{{- end }}
{{- include "stormhook.kafkaLogin" (dict "root" $root "principal" .name) }}
{{- include "stormhook.mongoUrl" (dict "root" $root "user" .name) }}
{{- /* Internal gRPC tokens: a service that calls others (files/grpc-edges.json) signs its tokens with
     its own Ed25519 private key, read from its own key of the Secret and under a variable named for
     it: no pod gets another service's key. Every gRPC service gets the public keys (a ConfigMap) and
     checks a token with the key of the service that signed it. */}}
{{- $signing := $root.Values.secrets.internalSigning }}
{{- $signingSecret := required "secrets.internalSigning.existingSecret is required: name an existing Secret holding each calling service's Ed25519 private key (PKCS#8 PEM) under <service>-internal-signing-key.pem" $signing.existingSecret }}
{{- if (index (include "stormhook.grpcEdges" $root | fromJson).services .name).calls }}
- name: {{ printf "%s_INTERNAL_SIGNING_KEY" (.name | upper | replace "-" "_") }}
  valueFrom:
    secretKeyRef:
      name: {{ $signingSecret }}
      key: {{ printf "%s-internal-signing-key.pem" .name }}
{{- end }}
{{- if ne .name "gateway" }}
{{- $publicKeys := $root.Values.internalPublicKeys }}
- name: INTERNAL_PUBLIC_KEYS
  valueFrom:
    configMapKeyRef:
      name: {{ required "internalPublicKeys.existingConfigMap is required: name an existing ConfigMap holding the calling services' Ed25519 public keys as JSON (service name -> SPKI PEM)" $publicKeys.existingConfigMap }}
      key: {{ $publicKeys.key }}
{{- end }}
{{- $jwt := $root.Values.secrets.jwt }}
{{- $jwtMessage := "secrets.jwt.existingSecret is required while identity is enabled: name an existing Secret holding the Ed25519 token signing key in PEM" }}
{{- if eq .name "identity" }}
- name: IDENTITY_JWT_PRIVATE_KEY
  valueFrom:
    secretKeyRef:
      name: {{ required $jwtMessage $jwt.existingSecret }}
      key: {{ $jwt.signingKeyKey }}
{{- $admin := $root.Values.secrets.admin }}
{{- if $admin.existingSecret }}
- name: STORMHOOK_ADMIN_EMAIL
  valueFrom:
    secretKeyRef:
      name: {{ $admin.existingSecret }}
      key: {{ $admin.emailKey }}
- name: STORMHOOK_ADMIN_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ $admin.existingSecret }}
      key: {{ $admin.passwordKey }}
{{- end }}
{{- end }}
{{- if eq .name "notifier" }}
{{- $enc := $root.Values.secrets.credentialEncryption }}
- name: CREDENTIAL_ENCRYPTION_KEY
  valueFrom:
    secretKeyRef:
      name: {{ required "secrets.credentialEncryption.existingSecret is required while notifier is enabled: name an existing Secret holding the 32-byte AES-256-GCM key (base64)" $enc.existingSecret }}
      key: {{ $enc.key }}
{{- end }}
{{- /* One-time links and codes cross Kafka sealed to the notifier: identity gets only the public key,
     the notifier alone the private key that opens them. */}}
{{- $msg := $root.Values.secrets.messageKey }}
{{- $msgMessage := "secrets.messageKey.existingSecret is required: name an existing Secret holding the notifier's X25519 message key pair (PEM) under secrets.messageKey.privateKeyKey and publicKeyKey" }}
{{- if eq .name "notifier" }}
- name: NOTIFIER_MESSAGE_KEY
  valueFrom:
    secretKeyRef:
      name: {{ required $msgMessage $msg.existingSecret }}
      key: {{ $msg.privateKeyKey }}
{{- end }}
{{- if eq .name "identity" }}
- name: NOTIFIER_MESSAGE_PUBLIC_KEY
  valueFrom:
    secretKeyRef:
      name: {{ required $msgMessage $msg.existingSecret }}
      key: {{ $msg.publicKeyKey }}
{{- end }}
{{- end -}}

{{/*
A process's own Kafka login: the principal is its name in the access table
(packages/kafka/src/topic-access.ts), the password comes from that principal's own Secret and from
no other. Not overridable by plain values.
*/}}
{{- define "stormhook.kafkaLogin" -}}
{{- $kafka := .root.Values.secrets.kafka }}
- name: KAFKA_USERNAME
  value: {{ .principal | quote }}
- name: KAFKA_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ printf "%s%s" (required "secrets.kafka.secretPrefix is required: each Kafka principal's password lives in a Secret named <secretPrefix><principal> (e.g. stormhook-kafka-ingest)" $kafka.secretPrefix) .principal }}
      key: {{ $kafka.passwordKey }}
- name: KAFKA_TLS
  value: {{ .root.Values.kafka.tls | toString | quote }}
{{- end -}}

{{/*
A process's own MongoDB login: the URL of the table's user named for it
(packages/mongo/src/database-access.ts, files/mongo-users.json), from that user's own Secret, so a
pod never holds another service's database credential.
*/}}
{{- define "stormhook.mongoUrl" -}}
{{- $db := .root.Values.secrets.database }}
- name: {{ .variable | default "MONGO_URL" }}
  valueFrom:
    secretKeyRef:
      name: {{ include "stormhook.mongoSecret" (dict "root" .root "user" .user) }}
      key: {{ $db.key }}
{{- end -}}

{{- define "stormhook.mongoSecret" -}}
{{- printf "%s%s" (required "secrets.database.secretPrefix is required: each service's MongoDB URL (its own user) lives in a Secret named <secretPrefix><service> (e.g. stormhook-mongo-ingest)" .root.Values.secrets.database.secretPrefix) .user -}}
{{- end -}}

{{/* The database access table's users and roles (files/mongo-users.json). */}}
{{- define "stormhook.mongoUsers" -}}
{{- $text := .Files.Get "files/mongo-users.json" -}}
{{- if not $text -}}
{{- fail "files/mongo-users.json is missing: regenerate it with `node tools/devstack/dist/deploy/cli.js mongo-users`" -}}
{{- end -}}
{{- $text -}}
{{- end -}}

{{/* A database's name with global.dbPrefix (packages/mongo/src/names.ts: `stormhook` when empty). */}}
{{- define "stormhook.databaseName" -}}
{{- printf "%s_%s" (.root.Values.global.dbPrefix | default "stormhook") .database -}}
{{- end -}}

{{/* The ACL rules of the access table (files/kafka-acls.json). */}}
{{- define "stormhook.kafkaAcls" -}}
{{- $text := .Files.Get "files/kafka-acls.json" -}}
{{- if not $text -}}
{{- fail "files/kafka-acls.json is missing: regenerate it with `node tools/devstack/dist/deploy/cli.js kafka-acls`" -}}
{{- end -}}
{{- $text -}}
{{- end -}}

{{/*
The super user's client settings for the Kafka command-line tools of the chart's jobs, written to
/tmp/admin.properties from ADMIN_USERNAME and ADMIN_PASSWORD (secrets.kafka.adminSecret).
*/}}
{{- define "stormhook.kafkaAdminConfigScript" -}}
{{- if .Values.kafka.tls }}
echo "security.protocol=SASL_SSL" > /tmp/admin.properties
{{- else }}
echo "security.protocol=SASL_PLAINTEXT" > /tmp/admin.properties
{{- end }}
echo "sasl.mechanism=SCRAM-SHA-512" >> /tmp/admin.properties
echo "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"$ADMIN_USERNAME\" password=\"$ADMIN_PASSWORD\";" >> /tmp/admin.properties
{{- end -}}

{{- define "stormhook.kafkaAdminEnv" -}}
{{- $secret := required "secrets.kafka.adminSecret is required while a Kafka job is enabled: name an existing Secret holding the super user's login (keys username, password)" .Values.secrets.kafka.adminSecret }}
- name: ADMIN_USERNAME
  valueFrom:
    secretKeyRef: { name: {{ $secret }}, key: username }
- name: ADMIN_PASSWORD
  valueFrom:
    secretKeyRef: { name: {{ $secret }}, key: password }
{{- end -}}
