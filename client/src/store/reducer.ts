/**
 * The one pure reducer of server pushes: socket -> bindings -> applySnapshot -> store.
 */
import { isLocale } from '../i18n/locale';
import type { DocumentSlot, HeldDocument, Snapshot, StoreData } from './types';

/** Which slot of the store a live document path fills, or null for paths it does not hold. */
export function slotForPath(path: string, data: Pick<StoreData, 'session'>): DocumentSlot | null {
  const [collection, id, ...rest] = path.split('/');
  if (rest.length > 0 || !id) return null;
  if (collection === 'users') return id === data.session.user?.uid ? 'user' : null;
  if (collection === 'appointments') return 'appointment';
  return null;
}

function localeOf(doc: HeldDocument | null): unknown {
  return doc?.exists ? doc.data?.locale : undefined;
}

/**
 * Applies one snapshot. A snapshot whose version is not newer than the one held for the same
 * path is ignored (a push can overtake a subscribe ack; the same version is the same committed
 * state), and the very same state object is returned so nothing re-renders.
 * A user record whose valid `locale` is new sets the interface language (docs/product.md "The booking flow").
 */
export function applySnapshot(state: StoreData, snapshot: Snapshot): StoreData {
  const slot = slotForPath(snapshot.path, state);
  if (slot === null) return state;
  const held = state.documents[slot];
  if (held?.path === snapshot.path && snapshot.version <= held.version) return state;

  const next: HeldDocument = {
    path: snapshot.path,
    exists: snapshot.exists,
    data: snapshot.exists ? snapshot.data : null,
    version: snapshot.version,
  };
  let { locale } = state;
  if (slot === 'user') {
    const userLocale = localeOf(next);
    if (isLocale(userLocale) && userLocale !== localeOf(held)) locale = userLocale;
  }
  return { ...state, documents: { ...state.documents, [slot]: next }, locale };
}
