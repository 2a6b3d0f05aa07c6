import type { StateCreator } from 'zustand';
import type { AppState } from './index';
import type { SaveStatus } from './types';

export interface SaveSlice {
  saveStatus: SaveStatus;
  /** Set by the outbox bindings (realtime/outbox.ts). */
  setSaveStatus: (status: SaveStatus) => void;
}

export const createSaveSlice: StateCreator<AppState, [], [], SaveSlice> = (set) => ({
  saveStatus: 'idle',
  setSaveStatus: (saveStatus) => {
    set({ saveStatus });
  },
});
