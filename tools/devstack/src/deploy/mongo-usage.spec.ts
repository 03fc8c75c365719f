import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATABASE_USERS } from '@stormhook/mongo';
import { repoRoot } from '../paths.js';
import { checkMongoUsage, codeMongoUsage } from './mongo-usage.js';

describe('MongoDB usage of the code against the database access table', () => {
  it('finds each service opening its own database and no other', () => {
    const result = checkMongoUsage(repoRoot);
    assert.equal(result.ok, true, result.detail);
    const usage = codeMongoUsage(repoRoot);
    for (const service of DATABASE_USERS) assert.deepEqual([...usage.get(service)!.opens], [service], service);
  });

  it("fails a service that opens another's database, or one by a name the table cannot see", () => {
    const root = mkdtempSync(join(tmpdir(), 'stormhook-mongo-usage-'));
    try {
      for (const service of DATABASE_USERS) {
        mkdirSync(join(root, 'services', service, 'src'), { recursive: true });
        writeFileSync(join(root, 'services', service, 'src', 'service.ts'), `return startGrpcService('${service}', config);\n`);
      }
      assert.equal(checkMongoUsage(root).ok, true, checkMongoUsage(root).detail);
      writeFileSync(join(root, 'services', 'ingest', 'src', 'users.ts'), "const users = connectMongo({ dbName: serviceDatabase('identity', prefix) });\n");
      writeFileSync(join(root, 'services', 'query', 'src', 'raw.ts'), 'const db = client.db(name);\n');
      const detail = checkMongoUsage(root).detail;
      assert.match(detail, /ingest opens identity's database in code, not in the table/);
      assert.match(detail, /query opens a database by name in services\/query\/src\/raw.ts/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
