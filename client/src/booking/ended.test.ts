import { describe, expect, it } from 'vitest';
import { resources } from '../i18n/resources';
import type { HeldDocument } from '../store/types';
import { ENDED_STATUSES, startAgainInput, startAgainOffer } from './ended';

const held = (data: Record<string, unknown> | null, exists = true): HeldDocument => ({ path: 'appointments/a1', exists, data, version: 3 });

describe('starting again after an ended appointment', () => {
  it('knows the end states from the contract, each with its words in both languages', () => {
    expect([...ENDED_STATUSES].sort()).toEqual(['cancelled', 'completed', 'expired', 'no_show']);
    expect(Object.keys(resources.ja.booking.myBooking.ended).sort()).toEqual([...ENDED_STATUSES].sort());
    expect(Object.keys(resources.en.booking.myBooking.ended).sort()).toEqual([...ENDED_STATUSES].sort());
  });

  it('offers nothing for an open, missing or unloaded appointment', () => {
    for (const status of ['draft', 'pending_payment', 'confirmed']) {
      expect(startAgainOffer(held({ id: 'a1', status, intake: { profile: {} } }))).toBeNull();
    }
    expect(startAgainOffer(null)).toBeNull();
    expect(startAgainOffer(held(null, false))).toBeNull();
    expect(startAgainOffer(held({ status: 'cancelled' }))).toBeNull(); // no id to copy from
  });

  it('asks to copy when the ended appointment holds answers, and copies only when the person says yes', () => {
    const offer = startAgainOffer(held({ id: 'a1', status: 'cancelled', intake: { profile: { femaleDob: '1990-04-01' } }, patientRole: 10 }));
    expect(offer).toEqual({ appointmentId: 'a1', status: 'cancelled', hasAnswers: true });
    if (offer === null) throw new Error('no offer');
    expect(startAgainInput(offer, true)).toEqual({ copyFrom: 'a1' });
    expect(startAgainInput(offer, false)).toEqual({});
  });

  it('counts a patient role alone as an answer, and an empty questionnaire as none', () => {
    expect(startAgainOffer(held({ id: 'a1', status: 'expired', intake: {}, patientRole: 90 }))?.hasAnswers).toBe(true);
    const empty = startAgainOffer(held({ id: 'a1', status: 'no_show', intake: {}, patientRole: null }));
    expect(empty).toEqual({ appointmentId: 'a1', status: 'no_show', hasAnswers: false });
    if (empty === null) throw new Error('no offer');
    expect(startAgainInput(empty, true)).toEqual({}); // nothing to copy
  });
});
