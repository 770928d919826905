import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { languageCodes } from '@campus/contracts';
import { loadLanguage } from '../src/lib/i18n.ts';

// the app fetches one language's texts at a time; tests switch among all three directly
await Promise.all(languageCodes.map((language) => loadLanguage(language)));

// findBy… and waitFor give up after 1 s by default; antd's first render in jsdom on a busy machine takes longer
configure({ asyncUtilTimeout: 10_000 });

// antd reads matchMedia (responsive grid, Modal) and jsdom has none.
const browserLike = typeof window !== 'undefined';

if (browserLike && !window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}

// jsdom's getComputedStyle throws "Not implemented" for pseudo elements, which antd asks for (scrollbar size).
if (browserLike) {
  const originalGetComputedStyle = window.getComputedStyle.bind(window);
  window.getComputedStyle = (element: Element, pseudo?: string | null) => originalGetComputedStyle(element, pseudo ? undefined : pseudo);
}

if (browserLike && !('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserverStub });
}

afterEach(() => {
  if (!browserLike) return;
  cleanup();
  localStorage.clear();
});
