import { createRoot } from 'react-dom/client';
import type { SubAppCleanup, SubAppContext } from '@campus/subapp-sdk';
import { App } from './app.tsx';
import './styles.css';

/** Renders the app into the shell's container; the returned cleanup unmounts React (its effects drop every listener). */
export function mountQy(context: SubAppContext): SubAppCleanup {
  const root = createRoot(context.root, { identifierPrefix: 'qy-' });
  root.render(<App context={context} />);
  return () => root.unmount();
}
