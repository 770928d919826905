import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import { apiPaths, cardIssuerPaths, codes } from '@campus/contracts';
import { i18n } from '../../lib/i18n.ts';
import { registerNotifier } from '../../lib/request.ts';
import { fakeIssuer, useOneRealmTextEncoder } from '../../../test/fake-issuer.ts';
import { renderCardScreen } from '../../../test/render-card-screen.tsx';
import SystemInitPage from './system-init-page.tsx';

const button = (name: string) => screen.getByText(name, { selector: 'button, button *' }).closest('button')!;
const mother = { fixedNo: 'DE000001', image: '435301', cardClass: 'mother', customerNo: '10001', sysKeyCode: 'aa', customerPwd: '', initialised: false };

beforeEach(async () => {
  useOneRealmTextEncoder();
  registerNotifier({ error: () => {} });
  await i18n.changeLanguage('en-US');
});
afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('/system-init (spec §2, §5)', () => {
  it('has the title in both languages, the note, and checks the customer number rules before anything is sent', async () => {
    const user = userEvent.setup();
    const issuer = fakeIssuer();
    renderCardScreen('/system-init', <SystemInitPage />);
    expect(await screen.findByRole('heading', { name: 'National-crypto access-control system initialisation' })).toBeInTheDocument();
    expect(screen.getByText('国密门禁系统初始化')).toBeInTheDocument();
    expect(screen.getByText('Place the system mother card on the card reader before clicking "Execute initialisation".')).toBeInTheDocument();

    await user.click(button('Execute initialisation'));
    expect(await screen.findByText('Please enter the customer number')).toBeInTheDocument();
    expect(screen.getByText('Please enter the customer password')).toBeInTheDocument();

    const customerNo = screen.getByLabelText('Customer number');
    // both fields are required, and both labels carry the required mark
    expect(customerNo).toBeRequired();
    expect(screen.getByLabelText('Customer password')).toBeRequired();
    for (const label of ['Customer number', 'Customer password']) expect(screen.getByText(label, { selector: 'label' })).toHaveClass('ant-form-item-required');
    for (const [typed, message] of [
      ['12a', 'Only digits are allowed'],
      ['00123', 'Cannot start with 0, please change it to 123'],
      ['123456789', 'At most 8 digits'],
      ['000123456789', 'At most 8 digits'],
    ] as const) {
      await user.clear(customerNo);
      await user.type(customerNo, typed);
      expect(await screen.findByText(message)).toBeInTheDocument();
    }
    expect(issuer.calls).toEqual([]);
  });

  // issue 46 item 4: a copy of a card can be guessed offline, so the customer password may be neither short nor common
  it('refuses a short or common customer password before anything is read or sent', async () => {
    const user = userEvent.setup();
    const issuer = fakeIssuer();
    const { seen } = renderCardScreen('/system-init', <SystemInitPage />);
    await user.type(await screen.findByLabelText('Customer number'), '10001');
    const password = screen.getByLabelText('Customer password');
    for (const [typed, message] of [
      ['Cust#2026', 'The customer password has at least 10 characters'],
      ['Password123', 'This customer password is one of the most common ones and is refused: ask the vendor for a mother card with a stronger customer password'],
      ['QWERTYUIOP', 'This customer password is one of the most common ones and is refused: ask the vendor for a mother card with a stronger customer password'],
    ] as const) {
      await user.clear(password);
      await user.type(password, typed);
      await user.click(button('Execute initialisation'));
      expect(await screen.findByText(message)).toBeInTheDocument();
    }
    expect(issuer.calls).toEqual([]);
    expect(seen.filter((call) => call.url === apiPaths.addGmInitData)).toEqual([]);
  });

  it('a wrong customer password (215) shows the server’s message; closing puts it on the password to retype', async () => {
    const user = userEvent.setup();
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.readMasterCard, { code: 0, data: mother });
    renderCardScreen('/system-init', <SystemInitPage />, {
      routes: { [apiPaths.addGmInitData]: () => ({ envelope: { code: codes.customerPasswordWrong, msg: 'The customer password does not match the card on the reader', data: null } }) },
    });
    await user.type(await screen.findByLabelText('Customer number'), '10001');
    await user.type(screen.getByLabelText('Customer password'), 'Wrong#2026');
    await user.click(button('Execute initialisation'));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('The customer password does not match the card on the reader')).toBeInTheDocument();
    await user.click(within(dialog).getByText('Close', { selector: 'button, button *' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByLabelText('Customer password')).toHaveValue('');
    expect(screen.getByText('The customer password does not match the card on the reader')).toBeInTheDocument();
    expect(screen.getByLabelText('Customer number')).toHaveValue('10001');
  });

  it('the field messages follow a switch of language: the server’s (with its customer number) and the rules’', async () => {
    const user = userEvent.setup();
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.readMasterCard, { code: 0, data: mother });
    renderCardScreen('/system-init', <SystemInitPage />, {
      routes: { [apiPaths.addGmInitData]: () => ({ envelope: { code: codes.customerNoMismatch, msg: 'The customer number 10002 is not the one of the mother card on the reader', data: null } }) },
    });
    await user.type(await screen.findByLabelText('Customer number'), '10002');
    await user.type(screen.getByLabelText('Customer password'), 'Customer#2026');
    await user.click(button('Execute initialisation'));
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByText('Close', { selector: 'button, button *' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByText('The customer number 10002 is not the one of the mother card on the reader')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Customer password'));
    expect(await screen.findByText('Please enter the customer password')).toBeInTheDocument();

    await act(() => i18n.changeLanguage('zh-CN'));
    expect(await screen.findByText('客户编号 10002 与读卡器上的母卡不符')).toBeInTheDocument();
    expect(await screen.findByText('请输入客户密码')).toBeInTheDocument();
    expect(screen.queryByText(/is not the one of the mother card/)).not.toBeInTheDocument();
    expect(screen.queryByText('Please enter the customer password')).not.toBeInTheDocument();
  });

  it('initialises and goes on to the mother card swipe after the success closes by itself', async () => {
    const user = userEvent.setup();
    const issuer = fakeIssuer();
    issuer.on(cardIssuerPaths.readMasterCard, { code: 0, data: mother }, { code: 0, data: { ...mother, image: '4353aa', initialised: true } });
    const { router, seen } = renderCardScreen('/system-init', <SystemInitPage />, {
      elsewhere: ['/swipe-master-card-gm'],
      routes: {
        [apiPaths.addGmInitData]: () => ({ data: { prepareId: 'P1', fixedNo: 'DE000001', image: '4353aa', alreadyWritten: false } }),
        [apiPaths.gmSetSystemInit]: () => ({ data: null }),
      },
    });
    await user.type(await screen.findByLabelText('Customer number'), '10001');
    await user.type(screen.getByLabelText('Customer password'), 'Customer#2026');
    await user.click(button('Execute initialisation'));
    expect(await screen.findByText('The system is initialised: the mother card holds the new system key')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/swipe-master-card-gm'));
    expect(seen.filter((call) => call.url === apiPaths.gmSetSystemInit).map((call) => call.body)).toEqual([{ prepareId: 'P1', isSuccess: true, image: '4353aa' }]);
  });
});
