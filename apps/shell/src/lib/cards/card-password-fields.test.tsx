import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button, Form } from 'antd';
import type { PasswordComplexity } from '@campus/contracts';
import { i18n } from '../i18n.ts';
import { CardPasswordFields } from './card-password-fields.tsx';

const complexity = { regex: btoa('^(?=.*\\d).{8,}$'), tip: 'At least 8 characters with a digit', sealKey: '04ab' } as PasswordComplexity;

function renderFields(onFinish: (values: unknown) => void) {
  render(
    <Form onFinish={onFinish}>
      <CardPasswordFields complexity={complexity} />
      <Button htmlType="submit">Issue</Button>
    </Form>,
  );
}

beforeEach(async () => {
  await i18n.changeLanguage('en-US');
});

describe('the card password of a new administrator login card', () => {
  it('asks for both, holds the password to the server policy with its tip, and the confirmation to the password', async () => {
    const user = userEvent.setup();
    const onFinish = vi.fn();
    renderFields(onFinish);
    await user.click(screen.getByRole('button', { name: 'Issue' }));
    expect(await screen.findByText('Please enter the password')).toBeInTheDocument();
    expect(screen.getByText('Please enter the password again')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Card password', { exact: true }), 'short');
    await user.type(screen.getByLabelText('Confirm card password'), 'other');
    await user.click(screen.getByRole('button', { name: 'Issue' }));
    expect(await screen.findByText('At least 8 characters with a digit')).toBeInTheDocument();
    expect(onFinish).not.toHaveBeenCalled();

    await user.clear(screen.getByLabelText('Card password', { exact: true }));
    await user.type(screen.getByLabelText('Card password', { exact: true }), 'Card#2026a');
    await user.click(screen.getByRole('button', { name: 'Issue' }));
    await waitFor(() => expect(screen.queryByText('At least 8 characters with a digit')).toBeNull());
    expect(await screen.findByText('The two passwords are inconsistent')).toBeInTheDocument();
    expect(onFinish).not.toHaveBeenCalled();

    await user.clear(screen.getByLabelText('Confirm card password'));
    await user.type(screen.getByLabelText('Confirm card password'), 'Card#2026a');
    await user.click(screen.getByRole('button', { name: 'Issue' }));
    await waitFor(() => expect(onFinish).toHaveBeenCalledWith({ password: 'Card#2026a', confirm: 'Card#2026a' }));
  });
});
