import assert from 'node:assert/strict';
import { e164, email, locale, text, timezone } from './fields.js';

describe('field validators', () => {
  it('lower-cases e-mail usernames and refuses non-addresses', () => {
    assert.deepEqual(email('username', ' Ada.Lovelace@Example.COM '), { ok: true, value: 'ada.lovelace@example.com' });
    for (const bad of ['ada', 'ada@', '@x.io', 'ada@x', 'a b@x.io', 42]) {
      const r = email('username', bad);
      assert.ok(!r.ok && r.error.kind === 'validation' && r.error.field === 'username', String(bad));
    }
  });

  it('accepts language_REGION locales known to Intl only', () => {
    assert.equal(locale('locale', 'tr_TR').ok, true);
    assert.equal(locale('locale', 'en_GB').ok, true);
    for (const bad of ['tr-TR', 'TR_tr', 'tr', 'english', 'tr_TR_x']) assert.equal(locale('locale', bad).ok, false, bad);
  });

  it('accepts IANA time zones and refuses offsets and inventions', () => {
    for (const good of ['Europe/Istanbul', 'UTC', 'America/Argentina/Buenos_Aires', 'Asia/Nicosia']) assert.equal(timezone('timezone', good).ok, true, good);
    for (const bad of ['+03:00', 'Europe/Atlantis', 'GMT+3 ', '', 'Europe//Istanbul']) assert.equal(timezone('timezone', bad).ok, false, bad);
  });

  it('normalises phone numbers to E.164 and requires the country code', () => {
    assert.deepEqual(e164('mobilePhoneNumber', '+90 (532) 123-45-67'), { ok: true, value: '+905321234567' });
    for (const bad of ['05321234567', '+0532123456', '+90532abc4567', '+1234', '+9053212345678901']) {
      const r = e164('mobilePhoneNumber', bad);
      assert.ok(!r.ok && r.error.kind === 'validation' && r.error.field === 'mobilePhoneNumber', bad);
    }
  });

  it('trims text, bounds its length and refuses control characters', () => {
    assert.deepEqual(text('company', '  Acme  ', { max: 10 }), { ok: true, value: 'Acme' });
    assert.equal(text('company', 'x'.repeat(11), { max: 10 }).ok, false);
    assert.equal(text('firstName', '   ', { min: 1, max: 10 }).ok, false);
    assert.equal(text('company', 'a\u0000b', { max: 10 }).ok, false);
  });
});
