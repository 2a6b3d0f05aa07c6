import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FieldError } from './FieldParts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('a field problem line', () => {
  it('is there before any problem, and stays after the problem is fixed', () => {
    const view = render(<FieldError id="e" issue={null} />);
    const line = view.container.querySelector('.field-error');
    expect(line).not.toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    view.rerender(<FieldError id="e" issue="Please enter in Katakana." />);
    expect(screen.getByRole('alert').textContent).toBe('Please enter in Katakana.');
    expect(screen.getByRole('alert').id).toBe('e');
    view.rerender(<FieldError id="e" issue={null} />);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(view.container.querySelector('.field-error')).toBe(line);
  });

  it('neither comes nor goes while a pointer is pressed: it waits for the click to land', () => {
    const view = render(<FieldError id="e" issue="Invalid date." />);
    fireEvent.pointerDown(document.body);
    view.rerender(<FieldError id="e" issue={null} />); // fixed by the blur of that press
    expect(screen.getByRole('alert').textContent).toBe('Invalid date.');
    fireEvent.pointerUp(document.body);
    expect(screen.getByRole('alert').textContent).toBe('Invalid date.'); // the click comes first
    act(() => {
      vi.runAllTimers();
    });
    expect(screen.queryByRole('alert')).toBeNull();

    fireEvent.pointerDown(document.body);
    view.rerender(<FieldError id="e" issue="*Required" />);
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.pointerUp(document.body);
    act(() => {
      vi.runAllTimers();
    });
    expect(screen.getByRole('alert').textContent).toBe('*Required');
  });
});
