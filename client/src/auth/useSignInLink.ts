import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { rememberEmailForSignIn, type SignInEntry } from './emailLink';
import { NEXT_PARAM, safeNextPath } from './nextPath';
import { callFunction, errorMessageKey, FunctionsError } from '../realtime';
import { useAppStore } from '../store';
import { selectLocale } from '../store/selectors';

export type LinkRequestErrorKey =
  | ReturnType<typeof errorMessageKey>
  | 'errors:tooManyLinks'
  | 'errors:invalidEmail'
  | 'errors:entryNotFound';

/** What the person reads when a link could not be sent. */
export function linkRequestErrorKey(error: unknown): LinkRequestErrorKey {
  if (error instanceof FunctionsError) {
    if (error.code === 'resource-exhausted') return 'errors:tooManyLinks';
    if (error.code === 'invalid-argument') {
      const { details } = error;
      const fields = typeof details === 'object' && details !== null ? (details as { fields?: unknown }).fields : undefined;
      if (typeof fields === 'object' && fields !== null && 'email' in fields) return 'errors:invalidEmail';
    }
    if (error.code === 'not-found') return 'errors:entryNotFound';
  }
  return errorMessageKey(error);
}

export interface SignInLinkState {
  /** The address the last link went to; null until one was sent. */
  sentTo: string | null;
  /** True when the last link was a repeat to the same address. */
  resent: boolean;
  busy: boolean;
  error: LinkRequestErrorKey | null;
}

/** The key of the page's history state that keeps where the last link went. */
const SENT_TO_STATE = 'signInLinkSentTo';

/** Where the last link went, from the page's history state (kept when the person goes to the FAQ and back). */
function sentToOf(historyState: unknown): string | null {
  if (typeof historyState !== 'object' || historyState === null) return null;
  const sentTo = (historyState as Record<string, unknown>)[SENT_TO_STATE];
  return typeof sentTo === 'string' && sentTo !== '' ? sentTo : null;
}

function withoutSentTo(historyState: unknown): Record<string, unknown> {
  if (typeof historyState !== 'object' || historyState === null) return {};
  return Object.fromEntries(Object.entries(historyState).filter(([key]) => key !== SENT_TO_STATE));
}

/**
 * Asks for sign-in links (`sendEmail-authLink`) in the interface's language for the given
 * clinic and service, and remembers the address on this device for the confirmation step.
 * A link request is made once (no automatic retry): a repeat would send another mail.
 * Where the last link went is kept in the page's history entry too, so "check your inbox" and
 * its address are still there after following a link (the FAQ) and coming Back.
 */
export function useSignInLink(entry: SignInEntry) {
  const locale = useAppStore(selectLocale);
  const setLoginNotice = useAppStore((state) => state.setLoginNotice);
  const location = useLocation();
  const navigate = useNavigate();
  const [state, setState] = useState<SignInLinkState>(() => ({
    sentTo: sentToOf(location.state),
    resent: false,
    busy: false,
    error: null,
  }));

  /** This page's history entry, with `sentTo` kept (or dropped when null). */
  const keepInHistory = (sentTo: string | null) => {
    const kept = withoutSentTo(location.state);
    void navigate(location, { replace: true, state: sentTo === null ? kept : { ...kept, [SENT_TO_STATE]: sentTo } });
  };

  const send = async (email: string) => {
    setState((previous) => ({ ...previous, busy: true, error: null }));
    try {
      await callFunction('sendEmail-authLink', { email, locale, ...entry }, { maxAttempts: 1 });
      // Where the login screen was asked to lead (`?next=`): the link's page continues there.
      rememberEmailForSignIn(email, entry, safeNextPath(new URLSearchParams(location.search).get(NEXT_PARAM)));
      setLoginNotice(null);
      setState((previous) => ({ sentTo: email, resent: previous.sentTo === email, busy: false, error: null }));
      keepInHistory(email);
    } catch (error) {
      setState((previous) => ({ ...previous, busy: false, error: linkRequestErrorKey(error) }));
    }
  };

  return {
    ...state,
    send,
    /** Sends another link to the address the last one went to. */
    resend: () => {
      if (state.sentTo !== null) void send(state.sentTo);
    },
    /** Back to the address field (the last address stays remembered until a new link). */
    changeAddress: () => {
      setState({ sentTo: null, resent: false, busy: false, error: null });
      keepInHistory(null);
    },
  };
}
