export type HealthStatus = 'up' | 'down';

export interface ComponentHealth {
  status: HealthStatus;
  detail?: string;
}

export interface HealthReport {
  status: HealthStatus;
  components: Record<string, ComponentHealth>;
  /** Where the weather comes from when it is not real (the local stack's feed simulator); see data-source.ts. */
  dataSource?: string;
}

/** What the gateway depends on, probed on demand (gRPC health of the services, Kafka, the database). */
export interface HealthPort {
  check(): Promise<HealthReport>;
}
