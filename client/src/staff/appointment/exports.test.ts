import { afterEach, describe, expect, it, vi } from 'vitest';
import { FunctionsError } from '../../realtime';
import { json } from '../../test/fakeServer';
import { exportFileName, exportUrl, fetchExport } from './exports';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the FHIR downloads', () => {
  it('ask the right address in the staff member language, and name the file after its content', () => {
    expect(exportUrl('QuestionnaireResponse', 'a_1', 'en')).toBe('/fhir/QuestionnaireResponse/a_1?locale=en');
    expect(exportUrl('Questionnaire', 'prenatal-b2c', 'ja')).toBe('/fhir/Questionnaire/prenatal-b2c?locale=ja');
    expect(exportFileName('QuestionnaireResponse', 'a_1')).toBe('questionnaire-response-a_1.fhir.json');
    expect(exportFileName('Questionnaire', '../x')).toBe('questionnaire-___x.fhir.json');
  });

  it('send the session cookie, never cache, and turn a refusal into an error code', async () => {
    const fetch = vi.fn(async () => json({ resourceType: 'OperationOutcome' }, 403));
    vi.stubGlobal('fetch', fetch);
    await expect(fetchExport('Questionnaire', 'cancer-b2b', 'en')).rejects.toEqual(new FunctionsError('permission-denied', 'HTTP 403'));
    expect(fetch).toHaveBeenCalledWith('/fhir/Questionnaire/cancer-b2b?locale=en', expect.objectContaining({ credentials: 'include', cache: 'no-store' }));
    fetch.mockResolvedValueOnce(json({ resourceType: 'Questionnaire' }));
    const blob = await fetchExport('Questionnaire', 'cancer-b2b', 'en');
    expect(JSON.parse(await blob.text())).toEqual({ resourceType: 'Questionnaire' });
    expect(blob.type).toBe('application/fhir+json');
  });
});
