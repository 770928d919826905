import { afterEach, vi } from 'vitest';
import { unmountLeftovers } from './test-support.ts';

// Testing Library turns this on in a global beforeAll, which vitest (without globals) does not provide.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

afterEach(async () => {
  await unmountLeftovers();
  vi.restoreAllMocks();
  document.body.replaceChildren();
  window.history.replaceState(null, '', '/');
});
