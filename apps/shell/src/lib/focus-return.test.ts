import { afterEach, describe, expect, it } from 'vitest';
import { returnFocus, returnFocusLater } from './focus-return.ts';

afterEach(() => {
  document.body.innerHTML = '';
});

describe('giving the focus back to the control that opened a dialog', () => {
  it('focuses the remembered control once, and only while it is on the page', () => {
    const [opener, other] = ['opener', 'other'].map((name) => {
      const button = document.createElement('button');
      button.textContent = name;
      document.body.append(button);
      return button;
    }) as [HTMLButtonElement, HTMLButtonElement];
    returnFocusLater(opener);
    other.focus();
    returnFocus();
    expect(document.activeElement).toBe(opener);
    other.focus();
    returnFocus();
    expect(document.activeElement).toBe(other);

    returnFocusLater(opener);
    opener.remove();
    returnFocus();
    expect(document.activeElement).toBe(other);
  });
});
