import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render } from '@testing-library/react';
import { LoadingSpinner, PageSpinner, spinnerDelayMs } from './loading-spinner.tsx';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const spinner = (container: HTMLElement) => container.querySelector('.campus-spinner')!;

describe('LoadingSpinner', () => {
  it('holds its place unseen during a short wait and shows once the wait lasts', () => {
    const { container } = render(<LoadingSpinner />);
    expect(spinner(container)).toHaveClass('campus-spinner--waiting');
    act(() => vi.advanceTimersByTime(spinnerDelayMs - 1));
    expect(spinner(container)).toHaveClass('campus-spinner--waiting');
    act(() => vi.advanceTimersByTime(1));
    expect(spinner(container)).not.toHaveClass('campus-spinner--waiting');
    // decorative: what shows it names the wait
    expect(spinner(container)).toHaveAttribute('aria-hidden', 'true');
  });

  it('leaves no timer behind when the wait ends first', () => {
    const { unmount } = render(<LoadingSpinner />);
    expect(vi.getTimerCount()).toBe(1);
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('PageSpinner', () => {
  it('marks the page busy around the spinner', () => {
    const { container } = render(<PageSpinner />);
    expect(container.firstElementChild).toHaveAttribute('aria-busy', 'true');
    expect(spinner(container)).toHaveClass('campus-spinner--waiting');
  });
});
