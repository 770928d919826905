import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { usePrefersReducedMotion } from './reduced-motion.ts';

/** A matchMedia whose answer for prefers-reduced-motion the test changes, telling listeners as a browser does. */
function systemSetting(initial: boolean) {
  const list = new EventTarget() as EventTarget & { matches: boolean; media: string };
  list.matches = initial;
  list.media = '(prefers-reduced-motion: reduce)';
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => {
    expect(query).toBe('(prefers-reduced-motion: reduce)');
    return list as unknown as MediaQueryList;
  });
  return {
    set(value: boolean) {
      list.matches = value;
      list.dispatchEvent(new Event('change'));
    },
  };
}

function Probe() {
  return <p>{usePrefersReducedMotion() ? 'still' : 'moving'}</p>;
}

afterEach(() => vi.restoreAllMocks());

describe('usePrefersReducedMotion', () => {
  it('reads the system setting and follows it when it changes', () => {
    const setting = systemSetting(false);
    render(<Probe />);
    expect(screen.getByText('moving')).toBeInTheDocument();
    act(() => setting.set(true));
    expect(screen.getByText('still')).toBeInTheDocument();
    act(() => setting.set(false));
    expect(screen.getByText('moving')).toBeInTheDocument();
  });

  it('starts with less motion when the system asks for it', () => {
    systemSetting(true);
    render(<Probe />);
    expect(screen.getByText('still')).toBeInTheDocument();
  });
});
