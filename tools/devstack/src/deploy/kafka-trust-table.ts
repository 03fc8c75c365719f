import { consumedBy, GROUP_ACCESS, KAFKA_PRINCIPALS, producedBy } from '@stormhook/kafka';

const list = (items: readonly string[]) => (items.length === 0 ? '—' : items.map((item) => `\`${item}\``).join(', '));

/**
 * The README's trust model of the bus, rendered from the access table (a spec keeps the README's copy
 * equal to it): one row per principal, what it may produce, consume and which groups it may join.
 */
export function kafkaTrustTable(): string {
  const rows = KAFKA_PRINCIPALS.map(
    (principal) => `| \`${principal}\` | ${list(producedBy(principal))} | ${list(consumedBy(principal))} | ${list(GROUP_ACCESS[principal])} |`,
  );
  return ['| principal | may produce | may consume | may join groups (prefix) |', '|---|---|---|---|', ...rows].join('\n');
}
