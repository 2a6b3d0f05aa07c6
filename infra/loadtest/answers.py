"""Every required answer of the questionnaire per service category, as a person would give
them (realtime/intake/definition.json); the test suites build their people from these too."""

from typing import Any

# The shortest questionnaire: the cancer services'.
CANCER_ANSWERS: dict[str, Any] = {
    "patientRole": 90,
    "intake.contactInfo.lastName": "ヤマダ",
    "intake.contactInfo.firstName": "ハナコ",
    "intake.contactInfo.email": "hanako@example.jp",
    "intake.contactInfo.phone": "03-1234-5678",
    "intake.contactInfo.country": "JP",
    "intake.contactInfo.subdivision": "JP-13",
    "intake.contactInfo.registrant": 1,
    "intake.contactInfo.hasPrenatalServiceHistory": 0,
    "intake.profile.femaleDob": "1990-04-01",
    "intake.requests.expectations": [1, 2],
    "intake.requests.isDepressed": 0,
    "intake.requests.isDispleasured": 0,
    "intake.requests.referralSource": 1,
}

# The prenatal services' (not pregnant now: no gestation window).
PRENATAL_ANSWERS: dict[str, Any] = {
    **{k: v for k, v in CANCER_ANSWERS.items() if k != "patientRole"},
    "patientRole": 10,
    "intake.contactInfo.pregnantWomanAttendance": 1,
    "intake.currentPregnancy.isPregnant": 0,
    "intake.pregnancyHistory.wasPregnant": 0,
    "intake.prenatalTesting.hadPastTests": 0,
    "intake.prenatalTesting.hasPresentTests": 0,
    "intake.prenatalTesting.futurePlan": 3,
    "intake.prenatalTesting.prenatalDiscussion": 1,
    "intake.prenatalTesting.prenatalTestAgreement": 1,
    "intake.prenatalTesting.disorderDecision": 6,
}

ANSWERS_BY_CATEGORY: dict[str, dict[str, Any]] = {
    "cancer": CANCER_ANSWERS,
    "prenatal": PRENATAL_ANSWERS,
}

# Katakana family names a person types and retypes: a save that overwrites an earlier one,
# so a lost acknowledged save shows as an older name at the end.
RETYPED_NAMES = ("ヤマダ", "サトウ", "スズキ", "タカハシ", "タナカ", "ワタナベ", "イトウ")
RETYPED_FIELD = "intake.contactInfo.lastName"
