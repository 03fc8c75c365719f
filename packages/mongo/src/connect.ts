import type { Logger } from '@stormhook/logger';
import { MongoClient, type Db, type W } from 'mongodb';

export interface MongoOptions {
  url: string;
  dbName: string;
  /** Shown in the server's logs and currentOp, so an operator sees which service holds a connection. */
  appName: string;
  logger?: Logger;
  /**
   * How long an operation waits for a usable server before failing. Short (default 5 s) so that a
   * dead database turns into a fast 503 instead of requests piling up behind it.
   */
  serverSelectionTimeoutMS?: number;
  /**
   * Default 'majority': an acknowledged write survives a primary failover on a replica set. FerretDB
   * 1.24 (a single node) accepts and ignores it, as does a standalone MongoDB, so the default is safe
   * everywhere; it is configurable for deployments that deliberately trade durability for latency.
   */
  writeConcern?: W;
  /** Upper bound for `ping()`, used by readiness probes. Default 2 s. */
  pingTimeoutMS?: number;
}

export interface MongoHandle {
  client: MongoClient;
  db: Db;
  /** True when the server answers within the ping timeout; never throws. */
  ping(): Promise<boolean>;
  /** Closes every pooled connection; safe to call twice. */
  close(): Promise<void>;
}

/** The URL without credentials, for logs. */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/]*@/i, '$1***@');
}

/**
 * Connects and verifies the server is reachable, failing within `serverSelectionTimeoutMS` when not.
 * Retryable reads and writes are on: the driver uses them on replica sets and sharded clusters (one
 * transparent retry after a failover) and skips them on single servers such as FerretDB, which do not
 * support them. After a later outage the driver reconnects by itself; no restart is needed.
 */
export async function connectMongo(opts: MongoOptions): Promise<MongoHandle> {
  const serverSelectionTimeoutMS = opts.serverSelectionTimeoutMS ?? 5_000;
  const pingTimeoutMS = opts.pingTimeoutMS ?? 2_000;
  const client = new MongoClient(opts.url, {
    appName: opts.appName,
    serverSelectionTimeoutMS,
    connectTimeoutMS: serverSelectionTimeoutMS,
    retryWrites: true,
    retryReads: true,
    writeConcern: { w: opts.writeConcern ?? 'majority' },
  });
  const where = { url: redactUrl(opts.url), db: opts.dbName };
  try {
    await client.connect();
    await client.db(opts.dbName).command({ ping: 1 });
  } catch (error) {
    opts.logger?.error({ ...where, err: error }, 'cannot reach MongoDB');
    await client.close().catch(() => undefined);
    throw error;
  }
  opts.logger?.info(where, 'connected to MongoDB');

  const db = client.db(opts.dbName);
  let closing: Promise<void> | undefined;
  return {
    client,
    db,
    async ping() {
      try {
        await db.command({ ping: 1 }, { timeoutMS: pingTimeoutMS });
        return true;
      } catch (error) {
        opts.logger?.warn({ ...where, err: error }, 'MongoDB ping failed');
        return false;
      }
    },
    close() {
      closing ??= client.close();
      return closing;
    },
  };
}
