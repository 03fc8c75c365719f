import type { QuotaShares, ShareRead, ShareWrite } from '../quota/quota-shares.js';

/** Shares in memory, shared by the meters of one test like the real collection; counts every call. */
export class FakeShareTable {
  readonly docs = new Map<string, ShareRead & { updatedAt: number; windowEndsAt: Date }>();
  calls = 0;
  failing = false;

  port(instanceId: string): QuotaShares {
    return {
      instanceId,
      write: async (writes: readonly ShareWrite[], at: Date) => {
        this.calls++;
        if (this.failing) throw new Error('database down');
        for (const w of writes)
          this.docs.set(`${w.key}|${instanceId}`, {
            key: w.key,
            instance: instanceId,
            count: w.count,
            seq: w.seq,
            windowEndsAt: w.windowEndsAt,
            updatedAt: at.getTime(),
          });
      },
      sharesOf: async (key: string) => {
        this.calls++;
        if (this.failing) throw new Error('database down');
        return [...this.docs.values()].filter((d) => d.key === key).map((d) => ({ ...d }));
      },
      changedSince: async (since: Date) => {
        this.calls++;
        if (this.failing) throw new Error('database down');
        return [...this.docs.values()].filter((d) => d.updatedAt >= since.getTime()).map((d) => ({ ...d }));
      },
      purgeEnded: async () => 0,
    };
  }

  countOf(key: string): number {
    return [...this.docs.values()].filter((d) => d.key === key).reduce((sum, d) => sum + d.count, 0);
  }
}
