/**
 * `/staff/second-factor`: the staff session's second sign-in step (docs/protocol.md "Names
 * fixed ..."). "required": a code form posting `POST /auth/totp` `{code}` (a 6-digit code or a
 * recovery code); "enrol": `auth-totpEnroll` once, its set-up address shown as a QR code for an
 * authenticator app, with the key in it as text for typing by hand and the address itself, and
 * the recovery codes shown this once, then the same form, which then also asks the person to
 * confirm that they saved those codes. Success goes on to the page the person wanted (else the
 * board).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { secondFactorOf, STAFF_HOME } from '../auth/roles';
import { auth } from '../auth/session';
import { verifySecondFactor } from '../auth/signIn';
import { BusyStatus, Loading } from '../components/Loading';
import { ErrorText, FieldError } from '../components/FieldParts';
import { Screen } from '../components/ScreenPlaceholder';
import { isRecord } from '../isRecord';
import { callFunction, errorMessageKey, FunctionsError } from '../realtime';
import { useAppStore } from '../store';
import { selectAuthUser } from '../store/selectors';
import type { QrDrawing } from './qrDrawing';
import { codeProblem, normalizeCode, parseEnrolment, type Enrolment } from './secondFactor';
import './staff.css';
import './audit.css';

interface CodeValues {
  code: string;
  /** Enrolment only: the person says they saved the recovery codes, shown this once. */
  savedCodes: boolean;
}

/** A 401 of `POST /auth/totp` told by its `details.secondFactor`: a wrong or used code, or not set up. */
function secondFactorRefusal(error: unknown): 'wrongCode' | 'enrolFirst' | null {
  if (!(error instanceof FunctionsError) || error.code !== 'unauthenticated' || !isRecord(error.details)) return null;
  const state = error.details.secondFactor;
  return state === 'required' ? 'wrongCode' : state === 'enrol' ? 'enrolFirst' : null;
}

function intendedPath(state: unknown): string {
  const from = typeof state === 'object' && state !== null ? (state as { from?: unknown }).from : undefined;
  return typeof from === 'string' && from.startsWith('/staff') && !from.startsWith('/staff/second-factor') ? from : STAFF_HOME;
}

/** A key typed by hand reads easier in groups ("JBSW Y3DP ..."); authenticator apps ignore the spaces. */
function groupsOfFour(key: string): string {
  return key.replace(/(.{4})(?=.)/g, '$1 ');
}

/** The set-up address as a QR code, drawn from checked path data only (qrDrawing.ts). */
function QrCode({ qr }: { qr: QrDrawing }) {
  const { t } = useTranslation('staff');
  return (
    <svg className="staff-qr" viewBox={qr.viewBox} role="img" aria-labelledby="second-factor-qr-alt" shapeRendering="crispEdges">
      <title id="second-factor-qr-alt">{t('secondFactor.qrAlt')}</title>
      {qr.paths.map((path, index) => (
        <path key={index} d={path.d} fill={path.fill ?? undefined} stroke={path.stroke ?? undefined} />
      ))}
    </svg>
  );
}

function EnrolmentDetails({ enrolment }: { enrolment: Enrolment }) {
  const { t } = useTranslation('staff');
  return (
    <div className="card staff-enrolment">
      <h2>{t('secondFactor.qrTitle')}</h2>
      {enrolment.qr === null ? <p>{t('secondFactor.qrUnavailable')}</p> : <QrCode qr={enrolment.qr} />}
      {enrolment.secret !== null && (
        <p>
          {t('secondFactor.secretLabel')}: <code className="staff-secret">{groupsOfFour(enrolment.secret)}</code>
        </p>
      )}
      <h3>{t('secondFactor.uriLabel')}</h3>
      <p>
        <code className="staff-uri">{enrolment.otpauthUri}</code>
      </p>
      {enrolment.recoveryCodes.length > 0 && (
        <>
          <h2 id="recovery-codes-title">{t('secondFactor.recoveryTitle')}</h2>
          <p>{t('secondFactor.recoveryLead')}</p>
          <ol className="staff-recovery-codes" aria-labelledby="recovery-codes-title">
            {enrolment.recoveryCodes.map((code) => (
              <li key={code}>
                <code>{code}</code>
              </li>
            ))}
          </ol>
        </>
      )}
    </div>
  );
}

export default function SecondFactorScreen() {
  const { t } = useTranslation(['staff', 'errors']);
  const user = useAppStore(selectAuthUser);
  const state = secondFactorOf(user);
  const navigate = useNavigate();
  const location = useLocation();
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [enrolError, setEnrolError] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const enrolAsked = useRef(false);

  const enrol = useCallback(() => {
    setEnrolError(null);
    callFunction('auth-totpEnroll', {}, { maxAttempts: 1 }).then(
      (data) => {
        const parsed = parseEnrolment(data);
        if (parsed === null) setEnrolError(t('errors:unknown'));
        else setEnrolment(parsed);
      },
      (error: unknown) => {
        setEnrolError(t(errorMessageKey(error)));
      },
    );
  }, [t]);

  useEffect(() => {
    // Once per visit: a second call would make a new secret and new recovery codes.
    if (state !== 'enrol' || enrolAsked.current) return;
    enrolAsked.current = true;
    enrol();
  }, [state, enrol]);

  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<CodeValues>({ defaultValues: { code: '', savedCodes: false } });

  const onValid = async ({ code }: CodeValues) => {
    setRefusal(null);
    try {
      await verifySecondFactor(auth, normalizeCode(code));
    } catch (error) {
      // In the person's language: a refused code by its details, another 401 in the server's
      // own words (no sentence of the app says more), anything else by its error code.
      const refusal = secondFactorRefusal(error);
      if (refusal !== null) setRefusal(t(`secondFactor.${refusal}`));
      else setRefusal(error instanceof FunctionsError && error.code === 'unauthenticated' ? error.message : t(errorMessageKey(error)));
      return;
    }
    void navigate(intendedPath(location.state), { replace: true });
  };

  if (state === 'ok') {
    return (
      <Screen title={t('secondFactor.title')} lead={t('secondFactor.done')}>
        <p>
          <Link to={STAFF_HOME}>{t('secondFactor.toBoard')}</Link>
        </p>
      </Screen>
    );
  }

  // The validate rule's result (codeProblem) is the message: "required" or "invalidFormat".
  const problem = errors.code?.message;
  const issue = problem === 'required' || problem === 'invalidFormat' ? t(`secondFactor.${problem}`) : null;

  const showForm = state === 'required' || enrolment !== null;
  const askSaved = enrolment !== null && enrolment.recoveryCodes.length > 0;
  const savedIssue = askSaved && errors.savedCodes !== undefined ? t('secondFactor.savedCodesRequired') : null;
  return (
    <Screen title={t('secondFactor.title')} lead={state === 'enrol' ? t('secondFactor.enrolLead') : t('secondFactor.lead')}>
      {state === 'enrol' && enrolment === null && enrolError === null && <Loading />}
      {enrolError !== null && (
        <>
          <ErrorText>{enrolError}</ErrorText>
          <p>
            <button type="button" onClick={enrol}>
              {t('secondFactor.retry')}
            </button>
          </p>
        </>
      )}
      {enrolment !== null && <EnrolmentDetails enrolment={enrolment} />}
      {showForm && (
        <form
          className="card staff-code-form"
          noValidate
          onSubmit={(event) => {
            void handleSubmit(onValid)(event);
          }}
        >
          <div className="field">
            <label htmlFor="second-factor-code">{t('secondFactor.codeLabel')}</label>
            <p id="second-factor-code-hint" className="hint">
              {t('secondFactor.codeHint')}
            </p>
            <input
              id="second-factor-code"
              type="text"
              autoComplete="one-time-code"
              spellCheck={false}
              autoCapitalize="off"
              maxLength={64}
              aria-required
              aria-invalid={issue !== null}
              aria-describedby={issue === null ? 'second-factor-code-hint' : 'second-factor-code-hint second-factor-code-error'}
              {...register('code', { validate: (value) => codeProblem(value) ?? true })}
            />
            <FieldError id="second-factor-code-error" issue={issue} />
          </div>
          {askSaved && (
            <div className="field" data-invalid={savedIssue !== null || undefined}>
              <label className="choice" htmlFor="second-factor-saved">
                <input
                  id="second-factor-saved"
                  type="checkbox"
                  aria-invalid={savedIssue !== null}
                  aria-describedby={savedIssue === null ? undefined : 'second-factor-saved-error'}
                  {...register('savedCodes', { validate: (value) => value || 'savedCodes' })}
                />{' '}
                {t('secondFactor.savedCodes')}
              </label>
              <FieldError id="second-factor-saved-error" issue={savedIssue} />
            </div>
          )}
          {refusal !== null && <ErrorText>{refusal}</ErrorText>}
          <div className="actions">
            <button type="submit" className="primary" disabled={isSubmitting}>
              {t('secondFactor.submit')}
            </button>
            <BusyStatus busy={isSubmitting}>{t('secondFactor.checking')}</BusyStatus>
          </div>
        </form>
      )}
    </Screen>
  );
}
