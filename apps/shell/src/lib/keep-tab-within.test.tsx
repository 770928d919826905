import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { keepTabWithin, tabStops } from './keep-tab-within.tsx';

function Dialog() {
  return (
    <>
      <button type="button">Behind</button>
      <div role="dialog" aria-label="Box" onKeyDown={keepTabWithin}>
        <button type="button">Close</button>
        <button type="button" disabled>
          Disabled
        </button>
        <div tabIndex={-1}>Not a stop</div>
        <div inert>
          <button type="button">Inert</button>
        </div>
        <input aria-label="Last field" />
      </div>
      <button type="button">After</button>
    </>
  );
}

describe('keepTabWithin', () => {
  it('lists the stops: not disabled, not inert, not tabindex -1', () => {
    render(<Dialog />);
    expect(tabStops(screen.getByRole('dialog')).map((element) => element.textContent || element.getAttribute('aria-label'))).toEqual(['Close', 'Last field']);
  });

  it('Tab on the last stop goes to the first, Shift+Tab on the first to the last: never out of the dialog', async () => {
    const user = userEvent.setup();
    render(<Dialog />);
    // (jsdom knows no inert: user-event's own Tab would stop inside it, so the test starts on the last stop)
    screen.getByRole('textbox', { name: 'Last field' }).focus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Close' })).toHaveFocus();
    await user.tab({ shift: true });
    expect(screen.getByRole('textbox', { name: 'Last field' })).toHaveFocus();
  });
});
