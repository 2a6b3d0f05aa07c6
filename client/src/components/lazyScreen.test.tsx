import { act, fireEvent, render, screen } from '@testing-library/react';
import { cloneElement, Suspense, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { lazyScreen } from './lazyScreen';

const Page = () => <h1>The page</h1>;

describe('a lazily loaded screen', () => {
  it('renders at once, without the fallback, once it has been loaded', async () => {
    const importScreen = vi.fn(() => Promise.resolve(Page));
    const { element, load } = lazyScreen(importScreen);
    await load();
    render(<Suspense fallback={<p>Loading…</p>}>{element}</Suspense>);
    expect(screen.getByRole('heading', { name: 'The page' })).toBeTruthy();
    expect(screen.queryByText('Loading…')).toBeNull();
    expect(importScreen).toHaveBeenCalledTimes(1);
  });

  it('shows the fallback while it loads on first use, then the screen, loading it once', async () => {
    let arrive: (component: typeof Page) => void = () => undefined;
    const importScreen = vi.fn(() => new Promise<typeof Page>((resolve) => (arrive = resolve)));
    const { element, load } = lazyScreen(importScreen);
    render(<Suspense fallback={<p>Loading…</p>}>{element}</Suspense>);
    expect(screen.getByText('Loading…')).toBeTruthy();
    void load(); // a preload meanwhile asks for the same module
    await act(async () => {
      arrive(Page);
      await load();
    });
    expect(await screen.findByRole('heading', { name: 'The page' })).toBeTruthy();
    expect(importScreen).toHaveBeenCalledTimes(1);
  });

  it('keeps what the screen holds when the page around it renders again after it loaded', async () => {
    function Counter() {
      const [count, setCount] = useState(0);
      return (
        <button type="button" onClick={() => { setCount(count + 1); }}>
          Clicked {count}
        </button>
      );
    }
    const { element } = lazyScreen(() => Promise.resolve(Counter));
    const frame = (title: string) => (
      <>
        <h1>{title}</h1>
        {/* A new element each time, so that the screen renders again too. */}
        <Suspense fallback={<p>Loading…</p>}>{cloneElement(element)}</Suspense>
      </>
    );
    const view = render(frame('First'));
    fireEvent.click(await screen.findByRole('button', { name: 'Clicked 0' }));
    view.rerender(frame('Again'));
    expect(screen.getByRole('button', { name: 'Clicked 1' })).toBeTruthy();
  });
});
