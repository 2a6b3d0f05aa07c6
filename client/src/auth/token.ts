/**
 * The bearer token of the session, kept in memory and in sessionStorage (so a reload keeps the
 * session in this tab). A later issue moves to the HttpOnly cookie alone.
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

export function setToken(token: string | null): void {
  loaded = true;
  memoryToken = token;
  try {
    if (token === null) storage()?.removeItem(TOKEN_STORAGE_KEY);
    else storage()?.setItem(TOKEN_STORAGE_KEY, token);
  } catch {
    // Quota or disabled storage: the in-memory token still serves this page.
  }
}
