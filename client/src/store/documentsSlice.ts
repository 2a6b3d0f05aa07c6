import type { StateCreator } from 'zustand';
import type { AppState } from './index';
import { initialDocuments } from './initial';
import { applySnapshot } from './reducer';
import type { DocumentsState, Snapshot } from './types';

export interface DocumentsSlice {
  documents: DocumentsState;
  /** A live snapshot from the server (through the realtime bindings). */
  receiveSnapshot: (snapshot: Snapshot) => void;
  /** A clinic or service read through a function (clinic-read, service-read). */
  setReadDocument: (slot: 'clinic' | 'service', id: string, data: Record<string, unknown> | null) => void;
}

const collections = { clinic: 'clinics', service: 'services' } as const;

export const createDocumentsSlice: StateCreator<AppState, [], [], DocumentsSlice> = (set) => ({
  documents: initialDocuments,
  receiveSnapshot: (snapshot) => {
    // Returning the same state object makes zustand skip the update entirely.
    set((state) => applySnapshot(state, snapshot));
  },
  setReadDocument: (slot, id, data) => {
    set((state) => ({
      documents: {
        ...state.documents,
        [slot]: { path: `${collections[slot]}/${id}`, exists: data !== null, data, version: 0 },
      },
    }));
  },
});
