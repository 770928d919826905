import { Button, Tooltip } from 'antd';
import { CloseOutlined } from '@ant-design/icons';
import { useTranslation } from '../../lib/use-translation.ts';
import { turnOffDevOverride, useDevOverrideStore } from './dev-override.ts';
import './dev-override-badge.css';

function originOf(entry: string): string {
  try {
    return new URL(entry).origin;
  } catch {
    return entry;
  }
}

/**
 * The header's sign that this browser runs a developer's code for one sub-app (a stored override the server allows),
 * with the way to turn it off. Nothing while no override is in effect.
 */
export function DevOverrideBadge() {
  const { t } = useTranslation();
  const active = useDevOverrideStore((state) => state.active);
  if (!active) return null;
  const values = { app: active.app, entry: originOf(active.entry) };
  const turnOff = t('subApps.devOverride.turnOff', values);
  return (
    <span className="campus-dev-override" role="status" title={t('subApps.devOverride.explained', { app: active.app, entry: active.entry })}>
      <span className="campus-dev-override__text">{t('subApps.devOverride.badge', values)}</span>
      <Tooltip title={turnOff}>
        <Button type="text" size="small" className="campus-dev-override__off" icon={<CloseOutlined />} aria-label={turnOff} onClick={turnOffDevOverride} />
      </Tooltip>
    </span>
  );
}
