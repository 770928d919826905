import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { PageLink, PageNavigationProvider, usePageNavigation } from './page-navigation.tsx';

function showLink(navigate = vi.fn()) {
  render(
    <PageNavigationProvider value={{ navigate, search: new URLSearchParams() }}>
      <PageLink to="/select-func">By card</PageLink>
    </PageNavigationProvider>,
  );
  return { navigate, link: screen.getByRole('link', { name: 'By card' }) };
}

describe('PageLink', () => {
  it('is a link to its address that navigates in the page on a plain click', () => {
    const { navigate, link } = showLink();
    expect(link.getAttribute('href')).toBe('/select-func');
    const notPrevented = fireEvent.click(link);
    expect(notPrevented).toBe(false);
    expect(navigate).toHaveBeenCalledWith('/select-func');
  });

  it('leaves a click that asks for a new tab or window to the browser', () => {
    const { navigate, link } = showLink();
    for (const modifier of [{ ctrlKey: true }, { metaKey: true }, { shiftKey: true }, { button: 1 }]) {
      expect(fireEvent.click(link, modifier)).toBe(true);
    }
    expect(navigate).not.toHaveBeenCalled();
  });
});

describe('usePageNavigation', () => {
  it('says what is wrong when a page is rendered without navigation', () => {
    function Page() {
      usePageNavigation();
      return null;
    }
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => render(<Page />)).toThrow(/neither under the router nor as the standalone login page/);
  });
});
