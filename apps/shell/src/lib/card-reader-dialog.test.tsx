import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import type { TenantSettings } from '@campus/contracts';
import { apiPaths, cardIssuerPaths } from '@campus/contracts';
import { installFakeApi } from '../../test/fake-api.ts';
import { gateSettings } from '../../test/render-card-screen.tsx';
import { forgetPairing, issuerCall, setIssuerFetch } from './card-issuer.ts';
import { readerStep } from './card-flow.ts';
import type { FlowContext } from './card-flow.ts';
import { CardReaderDialog } from './card-reader-dialog.tsx';
import { i18n } from './i18n.ts';
import * as storage from './storage.ts';

/** An issuer that answers only on `port`: any other address does not answer, as a stopped or moved issuer. */
function issuerOnPort(port: string, called: string[]) {
  setIssuerFetch(async (input) => {
    const url = new URL(String(input));
    called.push(url.origin);
    if (url.port !== port) throw new TypeError('Failed to fetch');
    const data = url.pathname === cardIssuerPaths.addIdentity ? { deviceId: 'D1', devicePublicKey: '04ab', readerName: 'virtual' } : { fixedNo: 'DE000001' };
    return new Response(JSON.stringify({ code: 0, msg: 'ok', data }), { headers: { 'content-type': 'application/json' } });
  });
}

const readCard = async (ctx: FlowContext) => {
  const card = await readerStep(ctx, 'reading', () => issuerCall<{ fixedNo: string }>(cardIssuerPaths.readMasterCard));
  return `read ${card.fixedNo}`;
};

beforeEach(async () => {
  forgetPairing();
  await i18n.changeLanguage('en-US');
});
afterEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('the card reader dialog', () => {
  it('Try again reads the settings again, so a page opened before the issuer moved finds it at its new port', async () => {
    const user = userEvent.setup();
    // the page was opened while the server still named the spec's port; the issuer now answers on 7401 only
    storage.tenantSettings.set({ ...gateSettings, cardIssuerUrl: 'http://127.0.0.1:18085' } as TenantSettings);
    const called: string[] = [];
    issuerOnPort('7401', called);
    const seen = installFakeApi({ [apiPaths.tenantSettings]: () => ({ data: { ...gateSettings, cardIssuerUrl: 'http://127.0.0.1:7401' } }) });
    render(
      <I18nextProvider i18n={i18n}>
        <MemoryRouter>
          <CardReaderDialog open title="Read" flow={readCard} onClose={() => {}} />
        </MemoryRouter>
      </I18nextProvider>,
    );
    expect(await screen.findByText('card reader not installed or configured')).toBeInTheDocument();
    expect(seen.filter((call) => call.url === apiPaths.tenantSettings)).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('read DE000001')).toBeInTheDocument();
    expect(seen.filter((call) => call.url === apiPaths.tenantSettings)).toHaveLength(1);
    expect(called.at(-1)).toBe('http://127.0.0.1:7401');
  });
});
