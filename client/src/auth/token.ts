/**
 * The bearer token of the session, when the app knows one.
 *
 * E-mail-link sign-in sets the HttpOnly session cookie, which is what keeps a person signed in;
 * its bearer token is kept in memory only (it still serves this page where cookies are
 * blocked), never in storage a script could read later. A token found in
 * sessionStorage['genecounsel.authToken'] is used too: browser tests and tools sign in with
 * POST /dev/token and put its token there.
 */
export const TOKEN_STORAGE_KEY = 'genecounsel.authToken';

let memoryToken: string | null = null;
let loaded = false;

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    // Storage can be disabled (privacy settings); memory alone still works.
    return null;
  }
}

export function getToken(): string | null {
  if (!loaded) {
    loaded = true;
    memoryToken = storage()?.getItem(TOKEN_STORAGE_KEY) ?? null;
  }
  return memoryToken;
}

/**
 * Sets (or with null forgets) the token, in memory only. A token left in sessionStorage by a
 * test is dropped: it belongs to the session that this sign-in or sign-out replaces.
 */
export function setToken(token: string | null): void {
  loaded = true;
  memoryToken = token;
  try {
    storage()?.removeItem(TOKEN_STORAGE_KEY);
  } catch {
    // Disabled storage: nothing was kept there.
  }
}
