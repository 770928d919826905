// first: sets the stored language on i18n and <html lang> before anything renders (no paint in another language)
import { firstLanguageReady } from '../lib/i18n.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { Providers } from './providers.tsx';
import { createAppRouter } from './router.tsx';
import { registerCurrentPath, registerNavigate, registerNotifier } from '../lib/request.ts';
import { staticNotifier } from '../lib/notifier.ts';
import { installChunkRecovery } from '../lib/chunk-recovery.ts';
import './global.css';

const router = createAppRouter();
registerNavigate((to) => router.navigate(to, { replace: true }));
registerCurrentPath(() => router.state.location.pathname);
registerNotifier(staticNotifier);
installChunkRecovery();

// the router has begun loading the first page's code; the first paint waits for its texts as well
void firstLanguageReady.then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  ),
);
