import assert from 'node:assert/strict';
import { CredentialCipher, parseKeyring } from '../security/credential-cipher.js';
import { DEV_KID, newDevKeyring } from '../security/dev-keyring.js';
import { startHarness, type NotifierHarness } from '../test-support/harness.js';
import { COLLECTIONS } from './collections.js';
import { MongoDevKeyring } from './mongo-dev-keyring.js';

describe('MongoDevKeyring (FerretDB): one development key per stack', function () {
  this.timeout(60_000);
  let h: NotifierHarness;

  before(async () => {
    h = await startHarness();
  });
  beforeEach(async () => {
    await h.mongo.db.collection(COLLECTIONS.devSettings).deleteMany({});
  });
  after(async () => {
    await h?.close();
  });

  it('creates the keyring at the first start and gives every later start the same one', async () => {
    let made = 0;
    const create = (): string => {
      made++;
      return newDevKeyring();
    };
    const first = await new MongoDevKeyring(h.mongo.db).loadOrCreate(create);
    const second = await new MongoDevKeyring(h.mongo.db).loadOrCreate(create);
    assert.equal(first.created, true);
    assert.equal(second.created, false);
    assert.equal(second.keyring, first.keyring);
    assert.equal(made, 1, 'a stored keyring is read, not made again');
    // What one start encrypted, the next decrypts.
    const sealed = new CredentialCipher(parseKeyring(first.keyring)).encrypt('hunter2', 'endpoint:a-1:password');
    assert.equal(new CredentialCipher(parseKeyring(second.keyring)).decrypt(sealed, 'endpoint:a-1:password'), 'hunter2');
  });

  it("lets replicas starting at once agree on the first writer's keyring", async () => {
    const starts = await Promise.all(Array.from({ length: 6 }, () => new MongoDevKeyring(h.mongo.db).loadOrCreate(newDevKeyring)));
    assert.equal(new Set(starts.map((s) => s.keyring)).size, 1, 'one keyring');
    assert.equal(starts.filter((s) => s.created).length, 1, 'one writer won');
    assert.equal(parseKeyring(starts[0]?.keyring ?? '').currentKid, DEV_KID);
  });
});
