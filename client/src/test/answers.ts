/**
 * Questionnaire answers that tests store or check, as plain data (no store, no realtime), so
 * that pure tests can use them too.
 */

/** Who the person is and where they live: the contact step's answers, less who registers. */
export const contactBasics = {
  lastName: 'ヤマダ',
  firstName: 'ハナコ',
  email: 'hanako@example.jp',
  phone: '03-1234-5678',
  country: 'JP',
  subdivision: 'JP-13', // Tokyo
};

/** A complete cancer-service intake (nothing missing for the review). */
export const completeIntake = {
  healthCareProvider: { code: 'AB12' },
  contactInfo: {
    ...contactBasics,
    registrant: 'other',
    registrantOther: 'Sister',
    hasPrenatalServiceHistory: 0,
  },
  profile: { femaleDob: '1990-04-01' },
  familyMembers: [{ side: 0, relationship: 3, disorders: ['Q90'] }],
  requests: { expectations: [1, 2], isDepressed: 0, isDispleasured: -1, referralSource: 1 },
};
