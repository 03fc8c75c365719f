/**
 * The consumer group id on the broker: prefixed like the topics (see {@link topicNamer}), so a test
 * or a second stack on the same broker has groups of its own. One rule for every service, so a tool
 * that looks a service's group up (lag, faults, cleanup) finds it.
 */
export function consumerGroupId(group: string, prefix?: string): string {
  if (group.length === 0) throw new Error('a consumer group needs a name');
  return prefix ? `${prefix}.${group}` : group;
}
