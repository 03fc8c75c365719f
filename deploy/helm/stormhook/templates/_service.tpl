{{/*
Everything one service needs, rendered by templates/<service>.yaml with
  include "stormhook.service" (dict "root" . "name" "<service>")
ServiceAccount, Service, Deployment, HorizontalPodAutoscaler, PodDisruptionBudget, NetworkPolicy.
*/}}
{{- define "stormhook.service" -}}
{{- if include "stormhook.serviceEnabled" . -}}
{{- $svc := include "stormhook.serviceValues" . | fromYaml -}}
{{- $ctx := dict "root" .root "name" .name "svc" $svc -}}
{{- include "stormhook.checkReplicas" $ctx -}}
{{- include "stormhook.checkSingleWriter" $ctx -}}
{{- include "stormhook.serviceAccount" $ctx }}
{{ include "stormhook.k8sService" $ctx }}
{{ include "stormhook.deployment" $ctx }}
{{- if $svc.autoscaling.enabled }}
{{ include "stormhook.hpa" $ctx }}
{{- end }}
{{- if $svc.pdb.enabled }}
{{ include "stormhook.pdb" $ctx }}
{{- end }}
{{- if .root.Values.networkPolicy.enabled }}
{{ include "stormhook.networkPolicy" $ctx }}
{{- end }}
{{- end -}}
{{- end -}}

{{/* A consumer scaled past its widest topic's partitions only adds idle group members and rebalances. */}}
{{/* A service whose store has one writer (query's weather history) runs one pod, never more, even in a rollout. */}}
{{- define "stormhook.checkSingleWriter" -}}
{{- if and .svc.singleWriter (or (gt (int .svc.replicas) 1) .svc.autoscaling.enabled) -}}
{{- fail (printf "services.%s: its store has a single writer (singleWriter: true; query's weather history, README \"Weather history\"), so it runs exactly one replica without autoscaling" .name) -}}
{{- end -}}
{{- end -}}

{{- define "stormhook.checkReplicas" -}}
{{- $bound := include "stormhook.partitionBound" . | int -}}
{{- if and (gt $bound 0) (not .svc.allowIdleConsumers) -}}
{{- $most := ternary (int .svc.autoscaling.maxReplicas) (int .svc.replicas) (eq .svc.autoscaling.enabled true) -}}
{{- if gt $most $bound -}}
{{- fail (printf "services.%s: %d replicas exceed the %d partitions of its widest consumed topic; lower replicas/autoscaling.maxReplicas or set services.%s.allowIdleConsumers=true" .name $most $bound .name) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "stormhook.portName" -}}
{{- ternary "http" "grpc" (eq .name "gateway") -}}
{{- end -}}

{{- define "stormhook.serviceAccount" -}}
{{- if .root.Values.serviceAccount.create }}
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: {{ include "stormhook.componentName" . }}
  labels:
    {{- include "stormhook.componentLabels" . | nindent 4 }}
  {{- with .root.Values.serviceAccount.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
automountServiceAccountToken: false
{{- end }}
{{- end -}}

{{- define "stormhook.k8sService" -}}
---
apiVersion: v1
kind: Service
metadata:
  name: {{ include "stormhook.componentName" . }}
  labels:
    {{- include "stormhook.componentLabels" . | nindent 4 }}
spec:
  type: ClusterIP
  selector:
    {{- include "stormhook.selectorLabels" . | nindent 4 }}
  ports:
    - name: {{ include "stormhook.portName" . }}
      port: {{ .svc.port }}
      targetPort: {{ include "stormhook.portName" . }}
      {{- if ne .name "gateway" }}
      appProtocol: grpc
      {{- end }}
    {{- if .root.Values.metrics.enabled }}
    - name: metrics
      port: {{ .root.Values.metrics.port }}
      targetPort: metrics
    {{- end }}
{{- end -}}

{{- define "stormhook.probes" -}}
{{- $p := .svc.probes -}}
{{- if eq .name "gateway" }}
startupProbe:
  httpGet: { path: {{ $p.livenessPath }}, port: http }
  periodSeconds: 2
  failureThreshold: {{ $p.startupFailureThreshold }}
livenessProbe:
  httpGet: { path: {{ $p.livenessPath }}, port: http }
  periodSeconds: 10
  timeoutSeconds: 2
  failureThreshold: 3
readinessProbe:
  httpGet: { path: {{ $p.readinessPath }}, port: http }
  periodSeconds: 5
  timeoutSeconds: 3
  failureThreshold: 2
{{- else }}
startupProbe:
  tcpSocket: { port: grpc }
  periodSeconds: 2
  failureThreshold: {{ $p.startupFailureThreshold }}
livenessProbe:
  {{- if $p.livenessGrpcService }}
  grpc: { port: {{ .svc.port }}, service: {{ $p.livenessGrpcService | quote }} }
  {{- else }}
  tcpSocket: { port: grpc }
  {{- end }}
  periodSeconds: 10
  timeoutSeconds: 2
  failureThreshold: 3
readinessProbe:
  # The standard grpc.health.v1 service: SERVING only while Kafka and the database answer.
  grpc: { port: {{ .svc.port }} }
  periodSeconds: 5
  timeoutSeconds: 3
  failureThreshold: 2
{{- end }}
{{- end -}}

{{- define "stormhook.deployment" -}}
{{- $root := .root -}}
{{- $g := $root.Values.global -}}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "stormhook.componentName" . }}
  labels:
    {{- include "stormhook.componentLabels" . | nindent 4 }}
spec:
  {{- if not .svc.autoscaling.enabled }}
  replicas: {{ .svc.replicas }}
  {{- end }}
  revisionHistoryLimit: 5
  strategy:
    {{- if .svc.singleWriter }}
    # One writer of the weather history at a time, also during a rollout: the old pod stops first.
    type: Recreate
    {{- else }}
    type: RollingUpdate
    rollingUpdate: { maxSurge: 1, maxUnavailable: 0 }
    {{- end }}
  selector:
    matchLabels:
      {{- include "stormhook.selectorLabels" . | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "stormhook.selectorLabels" . | nindent 8 }}
        app.kubernetes.io/part-of: stormhook
        app.kubernetes.io/version: {{ $root.Chart.AppVersion | quote }}
        {{- with merge (deepCopy .svc.podLabels) $g.podLabels }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      {{- with merge (deepCopy .svc.podAnnotations) $g.podAnnotations }}
      annotations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
    spec:
      serviceAccountName: {{ ternary (include "stormhook.componentName" .) "default" $root.Values.serviceAccount.create }}
      automountServiceAccountToken: false
      enableServiceLinks: false
      terminationGracePeriodSeconds: {{ .svc.terminationGracePeriodSeconds }}
      securityContext:
        {{- toYaml .svc.podSecurityContext | nindent 8 }}
      {{- with $g.imagePullSecrets }}
      imagePullSecrets:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      containers:
        - name: {{ .name }}
          image: {{ include "stormhook.image" . | quote }}
          imagePullPolicy: {{ .svc.image.pullPolicy | default $g.image.pullPolicy }}
          {{- with .svc.nodeArgs }}
          args:
            {{- range . }}
            - {{ . | quote }}
            {{- end }}
            - dist/main.js
          {{- end }}
          ports:
            - name: {{ include "stormhook.portName" . }}
              containerPort: {{ .svc.port }}
              protocol: TCP
            {{- if $root.Values.metrics.enabled }}
            - name: metrics
              containerPort: {{ $root.Values.metrics.port }}
              protocol: TCP
            {{- end }}
          env:
            {{- include "stormhook.env" . | trim | nindent 12 }}
          {{- include "stormhook.probes" . | trim | nindent 10 }}
          lifecycle:
            preStop:
              exec:
                command: ["sleep", {{ .svc.preStopSleepSeconds | quote }}]
          resources:
            {{- toYaml .svc.resources | nindent 12 }}
          securityContext:
            {{- toYaml .svc.securityContext | nindent 12 }}
          volumeMounts:
            # The root filesystem is read-only; Node and its libraries may still want a scratch dir.
            - name: tmp
              mountPath: /tmp
      volumes:
        - name: tmp
          emptyDir: { medium: Memory, sizeLimit: 64Mi }
      {{- with .svc.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with .svc.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with .svc.affinity }}
      affinity:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      topologySpreadConstraints:
        {{- if .svc.topologySpreadConstraints }}
        {{- toYaml .svc.topologySpreadConstraints | nindent 8 }}
        {{- else }}
        {{- range $key := list "topology.kubernetes.io/zone" "kubernetes.io/hostname" }}
        - maxSkew: 1
          topologyKey: {{ $key }}
          whenUnsatisfiable: ScheduleAnyway
          labelSelector:
            matchLabels:
              {{- include "stormhook.selectorLabels" $ | nindent 14 }}
        {{- end }}
        {{- end }}
{{- end -}}

{{- define "stormhook.hpa" -}}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: {{ include "stormhook.componentName" . }}
  labels:
    {{- include "stormhook.componentLabels" . | nindent 4 }}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: {{ include "stormhook.componentName" . }}
  minReplicas: {{ .svc.autoscaling.minReplicas }}
  maxReplicas: {{ .svc.autoscaling.maxReplicas }}
  metrics:
    - type: Resource
      resource:
        name: cpu
        target: { type: Utilization, averageUtilization: {{ .svc.autoscaling.targetCPUUtilizationPercentage }} }
    {{- with .svc.autoscaling.targetMemoryUtilizationPercentage }}
    - type: Resource
      resource:
        name: memory
        target: { type: Utilization, averageUtilization: {{ . }} }
    {{- end }}
  behavior:
    # Every scale step of a consumer triggers a group rebalance: scale down slowly.
    scaleDown:
      stabilizationWindowSeconds: 300
      policies: [{ type: Pods, value: 1, periodSeconds: 120 }]
{{- end -}}

{{- define "stormhook.pdb" -}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ include "stormhook.componentName" . }}
  labels:
    {{- include "stormhook.componentLabels" . | nindent 4 }}
spec:
  maxUnavailable: {{ .svc.pdb.maxUnavailable }}
  selector:
    matchLabels:
      {{- include "stormhook.selectorLabels" . | nindent 6 }}
{{- end -}}

{{/* Peers of an infrastructure egress rule: the given ones, or anywhere on those ports. */}}
{{- define "stormhook.egressRule" -}}
- ports:
    {{- range .ports }}
    - { protocol: TCP, port: {{ . }} }
    {{- end }}
  {{- with .to }}
  to:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end -}}

{{/*
Peers "the public internet" of both families: 0.0.0.0/0 and ::/0 minus networkPolicy.nonPublic, the
one list of private, loopback, link-local, multicast and reserved ranges; .open drops the exceptions.
*/}}
{{- define "stormhook.publicInternet" -}}
{{- $nonPublic := .root.Values.networkPolicy.nonPublic -}}
- ipBlock:
    cidr: 0.0.0.0/0
    {{- if and (not .open) $nonPublic.ipv4 }}
    except:
      {{- toYaml $nonPublic.ipv4 | nindent 6 }}
    {{- end }}
- ipBlock:
    cidr: ::/0
    {{- if and (not .open) $nonPublic.ipv6 }}
    except:
      {{- toYaml $nonPublic.ipv6 | nindent 6 }}
    {{- end }}
{{- end -}}

{{- define "stormhook.networkPolicy" -}}
{{- $root := .root -}}
{{- $np := $root.Values.networkPolicy -}}
{{- $edges := (include "stormhook.grpcEdges" $root | fromJson).services -}}
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: {{ include "stormhook.componentName" . }}
  labels:
    {{- include "stormhook.componentLabels" . | nindent 4 }}
spec:
  podSelector:
    matchLabels:
      {{- include "stormhook.selectorLabels" . | nindent 6 }}
  policyTypes: [Ingress, Egress]
  ingress:
    {{- if eq .name "gateway" }}
    - ports: [{ protocol: TCP, port: http }]
      {{- with $np.gatewayFrom }}
      from:
        {{- toYaml . | nindent 8 }}
        # The `helm test` pod.
        - podSelector:
            matchLabels:
              {{- include "stormhook.selectorLabels" (dict "root" $root "name" "test") | nindent 14 }}
      {{- end }}
    {{- else }}
    {{- $callers := (index $edges .name).calledBy }}
    {{- if $callers }}
    # Only the services that call this one (files/grpc-edges.json, from packages/grpc/src/edges.ts).
    - ports: [{ protocol: TCP, port: grpc }]
      from:
        {{- range $caller := $callers }}
        - podSelector:
            matchLabels:
              {{- include "stormhook.selectorLabels" (dict "root" $root "name" $caller) | nindent 14 }}
        {{- end }}
    {{- end }}
    {{- end }}
    {{- if $root.Values.metrics.enabled }}
    - ports: [{ protocol: TCP, port: metrics }]
      {{- with $np.metricsFrom }}
      from:
        {{- toYaml . | nindent 8 }}
      {{- end }}
    {{- end }}
  egress:
    # DNS, wherever the cluster runs it.
    - ports: [{ protocol: UDP, port: 53 }, { protocol: TCP, port: 53 }]
    {{- include "stormhook.egressRule" $np.kafka | nindent 4 }}
    {{- include "stormhook.egressRule" $np.mongodb | nindent 4 }}
    {{- if $root.Values.otel.endpoint }}
    {{- include "stormhook.egressRule" $np.otel | nindent 4 }}
    {{- end }}
    {{- $geoSource := include "stormhook.geoSource" $root }}
    {{- if and (eq .name "geo") (regexMatch "^https?://" $geoSource) }}
    # The boundary files it imports at start (STORMHOOK_GEO_SOURCE).
    {{- include "stormhook.egressRule" (dict "ports" (list (include "stormhook.urlPort" (dict "url" $geoSource "what" "services.geo.env.STORMHOOK_GEO_SOURCE"))) "to" $np.geoSource.to) | nindent 4 }}
    {{- end }}
    {{- range $callee := (index $edges .name).calls }}
    {{- $calleeSvc := include "stormhook.serviceValues" (dict "root" $root "name" $callee) | fromYaml }}
    - ports: [{ protocol: TCP, port: {{ $calleeSvc.port }} }]
      to:
        - podSelector:
            matchLabels:
              {{- include "stormhook.selectorLabels" (dict "root" $root "name" $callee) | nindent 14 }}
    {{- end }}
    {{- if and (eq .name "notifier") $np.webhookEgress.enabled }}
    # Customer webhooks: public addresses of either family only, on any port.
    - to:
        {{- include "stormhook.publicInternet" (dict "root" $root "open" $np.webhookEgress.allowNonPublic) | nindent 8 }}
    {{- end }}
{{- end -}}
