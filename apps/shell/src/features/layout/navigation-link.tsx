import type { AnchorHTMLAttributes, MouseEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import type { MenuTarget } from './side-menu-tree.ts';

/**
 * An entry of the shell's navigation (header systems, side menu, the phone's drawer): a real link, so that it can
 * be opened in a new tab or have its address copied, which a plain click follows inside the shell. A target that
 * opens in a window of its own (monitoring pages, the audit application) is a link to a new window.
 */
export function NavigationLink({
  target,
  onChosen,
  ...rest
}: { target: MenuTarget; onChosen?: () => void } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href' | 'target' | 'rel'>) {
  const navigate = useNavigate();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    // a middle or modified click is the browser's (a new tab or window)
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    if (target.kind === 'route') {
      event.preventDefault();
      void navigate(target.to);
    }
    onChosen?.();
  };
  return target.kind === 'window' ? (
    <a {...rest} href={target.url} target="_blank" rel="noopener noreferrer" onClick={onClick} />
  ) : (
    <a {...rest} href={target.to} onClick={onClick} />
  );
}
