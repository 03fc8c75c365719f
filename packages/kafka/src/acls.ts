import kafkajs, { type AclEntry, type Kafka } from 'kafkajs';
import { withAdmin } from './admin.js';
import type { AclOperation, AclRule } from './topic-access.js';

// kafkajs is CommonJS and Node cannot see these enums as named exports: take them from the module object.
const { AclOperationTypes, AclPermissionTypes, AclResourceTypes, ResourcePatternTypes } = kafkajs;

const OPERATIONS: Record<AclOperation, kafkajs.AclOperationTypes> = {
  read: AclOperationTypes.READ,
  write: AclOperationTypes.WRITE,
  describe: AclOperationTypes.DESCRIBE,
  delete: AclOperationTypes.DELETE,
};

function entryOf(rule: AclRule): AclEntry {
  return {
    principal: `User:${rule.principal}`,
    host: '*',
    operation: OPERATIONS[rule.operation],
    permissionType: AclPermissionTypes.ALLOW,
    resourceType: rule.resource === 'topic' ? AclResourceTypes.TOPIC : AclResourceTypes.GROUP,
    resourceName: rule.name,
    resourcePatternType: rule.pattern === 'literal' ? ResourcePatternTypes.LITERAL : ResourcePatternTypes.PREFIXED,
  };
}

/**
 * Creates the ALLOW rules on the cluster (a client of a super user). Creating a rule that exists is a
 * no-op on the broker, so every start may call it. Rules are only added: one removed from the table
 * stays until an operator deletes it (the chart's job and a fresh local broker start from the table).
 */
export async function applyAcls(kafka: Kafka, rules: readonly AclRule[], timeoutMs = 30_000): Promise<void> {
  if (rules.length === 0) return;
  await withAdmin(kafka, async (admin) => {
    await admin.createAcls({ acl: rules.map(entryOf) });
    // The controller has committed them, but the broker authorises from its own copy of the metadata,
    // replayed a moment later: a client started now could still be refused. Return once it answers with all.
    const wanted = rules.map(entryOf).map(keyOf);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { resources } = await admin.describeAcls({
        resourceType: AclResourceTypes.ANY,
        resourcePatternType: ResourcePatternTypes.ANY,
        operation: AclOperationTypes.ANY,
        permissionType: AclPermissionTypes.ALLOW,
      });
      const present = new Set(resources.flatMap((r) => r.acls.map((acl) => keyOf({ ...r, ...acl }))));
      const missing = wanted.filter((key) => !present.has(key));
      if (missing.length === 0) return;
      if (Date.now() > deadline) throw new Error(`ACLs not visible on the broker after ${timeoutMs} ms: ${missing.slice(0, 3).join('; ')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
}

function keyOf(entry: AclEntry): string {
  return [entry.principal, entry.resourceType, entry.resourcePatternType, entry.resourceName, entry.operation].join(' ');
}
