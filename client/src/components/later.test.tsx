import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { later } from './later';

describe('a module loaded later', () => {
  it('renders nothing before, its part once it has loaded, and loads it once', async () => {
    const importModule = vi.fn(() => Promise.resolve({ Part: () => <p>Loaded part</p> }));
    const part = later(importModule);
    function Frame() {
      const module = part.useLoaded();
      return module ? <module.Part /> : <p>Frame alone</p>;
    }
    render(<Frame />);
    expect(screen.getByText('Frame alone')).toBeTruthy();
    await act(async () => {
      await Promise.all([part.load(), part.load()]);
    });
    expect(screen.getByText('Loaded part')).toBeTruthy();
    expect(importModule).toHaveBeenCalledTimes(1);
  });

  it('tries again after a failed load (offline, then back)', async () => {
    const importModule = vi
      .fn<() => Promise<{ value: number }>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValueOnce({ value: 1 });
    const part = later(importModule);
    await expect(part.load()).rejects.toThrow('Failed to fetch');
    await expect(part.load()).resolves.toEqual({ value: 1 });
    expect(importModule).toHaveBeenCalledTimes(2);
  });
});
