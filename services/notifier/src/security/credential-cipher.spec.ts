import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { CredentialCipher, DEFAULT_KID } from './credential-cipher.js';

describe('CredentialCipher', () => {
  const cipher = new CredentialCipher({ currentKid: DEFAULT_KID, keys: new Map([[DEFAULT_KID, randomBytes(32)]]) });

  it('decrypts what it encrypted, for the same record and field only', () => {
    const sealed = cipher.encrypt('hunter2', 'endpoint:a-1:password');
    assert.equal(Buffer.from(sealed.tag, 'base64').length, 16);
    assert.equal(cipher.decrypt(sealed, 'endpoint:a-1:password'), 'hunter2');
    assert.throws(() => cipher.decrypt(sealed, 'endpoint:a-2:password'));
  });

  it('refuses a truncated authentication tag, though GCM would verify its prefix', () => {
    const sealed = cipher.encrypt('hunter2', 'endpoint:a-1:password');
    for (const bytes of [4, 8, 12, 15]) {
      const truncated = { ...sealed, tag: Buffer.from(sealed.tag, 'base64').subarray(0, bytes).toString('base64') };
      assert.throws(() => cipher.decrypt(truncated, 'endpoint:a-1:password'), /16 bytes/, `${bytes}-byte tag`);
    }
  });
});
