import { afterEach, vi } from 'vitest';
import { configure } from '@testing-library/react';
import { unmountLeftovers } from './test-support.ts';

// Testing Library turns this on in a global beforeAll, which vitest (without globals) does not provide.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// findBy… and waitFor give up after 1 s by default: too little on the shared CI machine, which runs slower
configure({ asyncUtilTimeout: 10_000 });

afterEach(async () => {
  await unmountLeftovers();
  vi.restoreAllMocks();
  document.body.replaceChildren();
  window.history.replaceState(null, '', '/');
});
