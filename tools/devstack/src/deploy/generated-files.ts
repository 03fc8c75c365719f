import type { GeneratedFile } from './generated-file.js';
import { GRPC_EDGES_GENERATED } from './grpc-edges-file.js';
import { KAFKA_ACLS_GENERATED } from './kafka-acls-file.js';
import { MONGO_USERS_GENERATED } from './mongo-users-file.js';
import { TOPICS_GENERATED } from './topics-file.js';

/** Every file the chart reads that code renders: the deploy cli rewrites each, deploy:check compares each. */
export const GENERATED_FILES: readonly GeneratedFile[] = [TOPICS_GENERATED, KAFKA_ACLS_GENERATED, GRPC_EDGES_GENERATED, MONGO_USERS_GENERATED];
