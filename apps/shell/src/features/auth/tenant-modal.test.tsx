import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { i18n } from '../../lib/i18n.ts';
import { TenantModal } from './tenant-modal.tsx';

const tenants = [
  { code: '1001', name: 'Demo Campus' },
  { code: '1002', name: 'Branch Campus' },
];

function renderModal() {
  const onConfirm = vi.fn();
  const onCancel = vi.fn();
  render(<TenantModal tenants={tenants} onConfirm={onConfirm} onCancel={onCancel} />);
  return { onConfirm, onCancel };
}

describe('TenantModal', () => {
  it('has a title and preselects the first tenant', async () => {
    await i18n.changeLanguage('en-US');
    const { onConfirm } = renderModal();
    expect(screen.getByRole('dialog', { name: 'Choose tenant' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Demo Campus' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Branch Campus' })).not.toBeChecked();
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(onConfirm).toHaveBeenCalledWith('1001');
  });

  it('confirms the picked tenant, also with the keyboard', async () => {
    await i18n.changeLanguage('en-US');
    const { onConfirm } = renderModal();
    await userEvent.click(screen.getByRole('radio', { name: 'Branch Campus' }));
    await userEvent.keyboard('{Enter}');
    expect(onConfirm).toHaveBeenCalledWith('1002');
  });

  it('cancels', async () => {
    await i18n.changeLanguage('zh-CN');
    const { onCancel, onConfirm } = renderModal();
    expect(screen.getByRole('dialog', { name: '选择租户' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '取消' }));
    expect(onCancel).toHaveBeenCalled();
    expect(onConfirm).not.toHaveBeenCalled();
  });
});
