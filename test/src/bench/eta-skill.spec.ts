import { strict as assert } from 'node:assert';
import {
  approachSkill,
  approachStep,
  CALIBRATION_BUCKETS,
  calibrationSource,
  contactsFromSamples,
  entryAfter,
  LEAD_BUCKETS,
  leadMetrics,
  measureSpread,
  newApproachState,
  percentile,
  type ApproachPair,
  type Prediction,
} from './eta-skill.js';

const MIN = 60_000;

/** A prediction issued at 0 for `leadMin`, window ±`halfMin`, at 60 km/h (1 km per minute), true entry `trueMin` (undefined: never). */
function prediction(leadMin: number, trueMin: number | undefined, halfMin = 5): Prediction {
  return {
    issuedMs: 0,
    predictedMs: leadMin * MIN,
    earliestMs: (leadMin - halfMin) * MIN,
    latestMs: (leadMin + halfMin) * MIN,
    speedKmh: 60,
    trueMs: trueMin === undefined ? undefined : trueMin * MIN,
  };
}

const bucket = (lead: number) => LEAD_BUCKETS.find((b) => b.leadMin === lead)!;

describe('arrival skill scoring', () => {
  describe('lead buckets', () => {
    it('puts a lead in the bucket of ±5 min around it: 15 starts the 20 bucket, 60 closes the last, 37 is in none', () => {
      const ps = [prediction(14.9, 15), prediction(15, 15), prediction(37, 37), prediction(60, 60), prediction(55, 55)];
      assert.equal(leadMetrics(ps, bucket(10)).count, 1);
      assert.equal(leadMetrics(ps, bucket(20)).count, 1);
      assert.equal(leadMetrics(ps, bucket(30)).count, 0);
      assert.equal(leadMetrics(ps, bucket(45)).count, 0);
      assert.equal(leadMetrics(ps, bucket(60)).count, 2);
    });
  });

  describe('leadMetrics', () => {
    it('averages absolute errors over the true entries only, and counts coverage over them', () => {
      // Errors +2 (inside ±5), −8 (early of the window), +20 (late), and one never entering.
      const m = leadMetrics([prediction(30, 32), prediction(30, 22), prediction(30, 50), prediction(30, undefined)], bucket(30));
      assert.equal(m.count, 4);
      assert.equal(m.withEntry, 3);
      assert.equal(m.maeMin, 10);
      assert.equal(m.medianAbsMin, 8);
      assert.equal(m.biasMin, 14 / 3);
      assert.equal(m.coverage, 1 / 3);
      assert.equal(m.meanAlongKm, 10, 'at 60 km/h a minute is a kilometre');
    });

    it('calls a prediction unverified when the entry comes more than 60 min after the predicted time, or never', () => {
      const m = leadMetrics([prediction(10, 70), prediction(10, 71), prediction(10, undefined), prediction(10, 0)], bucket(10));
      assert.equal(m.unverified, 2 / 4);
    });

    it('counts an entry on the window edge as inside', () => {
      assert.equal(leadMetrics([prediction(20, 15), prediction(20, 25)], bucket(20)).coverage, 1);
    });
  });

  describe('percentile and the calibration table', () => {
    it('interpolates between order statistics', () => {
      assert.equal(percentile([0, 10], 0.1), 1);
      assert.equal(percentile([0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100], 0.9), 90);
      assert.ok(Number.isNaN(percentile([], 0.5)));
    });

    it('measures the asked percentiles of the along-track error per lead, in km at the storm speed', () => {
      // Lead 30, errors −10..+10 min at 60 km/h (1 km/min): p10 −8 km, p90 +8 km.
      const ps = Array.from({ length: 21 }, (_, k) => prediction(30, 30 + (k - 10)));
      // A slower storm: the same minutes are fewer kilometres.
      const slow = Array.from({ length: 21 }, (_, k) => ({ ...prediction(10, 10 + (k - 10)), speedKmh: 30 }));
      const rows = measureSpread([...ps, ...slow, prediction(30, undefined)], CALIBRATION_BUCKETS, { early: 0.1, late: 0.9 });
      const at = (lead: number) => rows.find((r) => r.leadMin === lead)!;
      assert.deepEqual(at(30), { leadMin: 30, earlyKm: -8, lateKm: 8, samples: 21 });
      assert.deepEqual(at(10), { leadMin: 10, earlyKm: -4, lateKm: 4, samples: 21 });
      assert.equal(at(60).samples, 0);
      assert.equal(rows.length, 6, 'leads 0, 10, 20, 30, 45, 60');
      // By default the 8th and 92nd (WINDOW_QUANTILES): −10 + 0.08 × 20 = −8.4 min at 1 km/min.
      assert.deepEqual(
        measureSpread(ps).find((r) => r.leadMin === 30),
        { leadMin: 30, earlyKm: -8.4, lateKm: 8.4, samples: 21 },
      );
    });

    it('prints the table in the shape of ETA_CALIBRATION', () => {
      const source = calibrationSource([{ leadMin: 30, earlyKm: -8.5, lateKm: 9, samples: 12 }]);
      assert.match(
        source,
        /^export const ETA_CALIBRATION: readonly CalibrationPoint\[\] = \[\n {2}\{ leadMin: 30, earlyKm: -8\.5, lateKm: 9 \}, \/\/ 12 arrivals\n\];$/,
      );
    });
  });

  describe('truth from samples', () => {
    it('finds each contact with its edges narrowed, and keeps one still open at the last sample', () => {
      const edges: Array<[number, number]> = [];
      const edge = (outside: number, inside: number) => {
        edges.push([outside, inside]);
        return (outside + inside) / 2;
      };
      const contacts = contactsFromSamples([0, 60, 120, 180, 240, 300], [false, true, true, false, true, true], edge);
      assert.deepEqual(contacts, [
        { fromMs: 30, toMs: 150 },
        { fromMs: 210, toMs: 300 },
      ]);
      assert.deepEqual(edges, [
        [0, 60],
        [180, 120],
        [180, 240],
      ]);
    });

    it('starts a contact at the first sample when the cell touches from its birth', () => {
      assert.deepEqual(
        contactsFromSamples([5, 60], [true, false], () => 42),
        [{ fromMs: 5, toMs: 42 }],
      );
    });

    it('gives the next entry at or after a time: the start of a later contact, the time itself inside one', () => {
      const contacts = [
        { fromMs: 100, toMs: 200 },
        { fromMs: 400, toMs: 500 },
      ];
      assert.equal(entryAfter(contacts, 50), 100);
      assert.equal(entryAfter(contacts, 150), 150);
      assert.equal(entryAfter(contacts, 250), 400);
      assert.equal(entryAfter(contacts, 600), undefined);
    });
  });

  describe('the APPROACHING lifecycle', () => {
    it('sends when an entry is predicted within 30 min, keeps it while any entry is predicted, cancels when none is, sends again', () => {
      const state = newApproachState();
      approachStep(state, 0, { touching: false, entryMin: 45 });
      assert.equal(state.approaches.length, 0, 'beyond the lead: nothing yet');
      approachStep(state, 5, { touching: false, entryMin: 30 });
      approachStep(state, 10, { touching: false, entryMin: 25 });
      approachStep(state, 15, { touching: false, entryMin: 50 });
      assert.deepEqual(state.approaches, [{ issuedMs: 5 }], 'not sent twice; a later entry keeps it');
      approachStep(state, 20, { touching: false, entryMin: undefined });
      approachStep(state, 25, { touching: false, entryMin: 12 });
      assert.deepEqual(state.approaches, [{ issuedMs: 5, cancelledMs: 20 }, { issuedMs: 25 }]);
    });

    it('sends nothing for an entry predicted now (0 min) and nothing after the cell touched the area', () => {
      const state = newApproachState();
      approachStep(state, 0, { touching: false, entryMin: 0 });
      approachStep(state, 5, { touching: true, entryMin: undefined });
      approachStep(state, 10, { touching: false, entryMin: 10 });
      assert.deepEqual(state.approaches, []);
      assert.equal(state.touched, true);
    });

    it('opens no warning while the cell is expected to end before it arrives, and keeps one standing', () => {
      const state = newApproachState();
      approachStep(state, 0, { touching: false, entryMin: 20, heldBack: true });
      assert.deepEqual(state.approaches, [], 'held back');
      approachStep(state, 5 * MIN, { touching: false, entryMin: 15 });
      approachStep(state, 10 * MIN, { touching: false, entryMin: 10, heldBack: true });
      assert.deepEqual(state.approaches, [{ issuedMs: 5 * MIN }], 'sent once it is not, and not withdrawn for a decay seen later');
      assert.equal(state.approaching, true);
    });
  });

  describe('approachSkill', () => {
    const pair = (approaches: ApproachPair['approaches'], entryMin: number | undefined, extra: Partial<ApproachPair> = {}): ApproachPair => ({
      approaches,
      contacts: entryMin === undefined ? [] : [{ fromMs: entryMin * MIN, toMs: (entryMin + 20) * MIN }],
      touchingAtBirth: false,
      firstRecordMs: 0,
      ...extra,
    });

    it('calls an APPROACHING false when its cell does not enter within 45 min of the issue', () => {
      const skill = approachSkill([pair([{ issuedMs: 10 * MIN }], 55), pair([{ issuedMs: 10 * MIN }], 56), pair([{ issuedMs: 10 * MIN }], undefined)]);
      assert.equal(skill.issued, 3);
      assert.equal(skill.falseAlarms, 2);
      assert.equal(skill.far, 2 / 3);
    });

    it('detects an entry only with a warning standing at it and issued at least 5 min before', () => {
      const skill = approachSkill([
        pair([{ issuedMs: 20 * MIN }], 25), // exactly 5 min: detected
        pair([{ issuedMs: 21 * MIN }], 25), // 4 min: too late
        pair([{ issuedMs: 0, cancelledMs: 20 * MIN }], 25), // withdrawn before the entry
        pair([{ issuedMs: 0, cancelledMs: 20 * MIN }, { issuedMs: 15 * MIN }], 25), // sent again in time
        pair([], 25), // never warned
      ]);
      assert.equal(skill.entries, 5);
      assert.equal(skill.detected, 2);
      assert.equal(skill.pod, 2 / 5);
    });

    it('counts no entry for a cell born over the area, and sets apart entries too soon after the first record to warn of', () => {
      const skill = approachSkill([pair([], 0, { touchingAtBirth: true }), pair([], 3, { firstRecordMs: 0 }), pair([{ issuedMs: 0 }], 30)]);
      assert.equal(skill.entries, 2);
      assert.equal(skill.warnableEntries, 1);
      assert.equal(skill.warnableDetected, 1);
      assert.equal(skill.podWarnable, 1);
      assert.equal(skill.pod, 1 / 2);
    });
  });
});
