import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import type { TenantSettings } from '@campus/contracts';
import { apiPaths, cardIssuerPaths, codes, shellVersion } from '@campus/contracts';
import { installFakeApi } from '../../../test/fake-api.ts';
import { gateSettings } from '../../../test/render-card-screen.tsx';
import { forgetPairing, issuerCall, setIssuerFetch } from './card-issuer.ts';
import { CardFlowError, readerStep } from './card-flow.ts';
import type { FlowContext } from './card-flow.ts';
import { CardReaderDialog } from './card-reader-dialog.tsx';
import { i18n } from '../i18n.ts';
import * as storage from '../storage.ts';

/** An issuer that answers only on `port`: any other address does not answer, as a stopped or moved issuer. */
function issuerOnPort(port: string, called: string[]) {
  setIssuerFetch(async (input) => {
    const url = new URL(String(input));
    called.push(url.origin);
    if (url.port !== port) throw new TypeError('Failed to fetch');
    const data = url.pathname === cardIssuerPaths.addIdentity ? { deviceId: 'D1', devicePublicKey: '04ab', readerName: 'virtual', issuerVersion: shellVersion } : { fixedNo: 'DE000001' };
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
      <MemoryRouter>
        <CardReaderDialog open title="Read" flow={readCard} onClose={() => {}} />
      </MemoryRouter>,
    );
    expect(await screen.findByText('card reader not installed or configured')).toBeInTheDocument();
    expect(seen.filter((call) => call.url === apiPaths.tenantSettings)).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('read DE000001')).toBeInTheDocument();
    expect(seen.filter((call) => call.url === apiPaths.tenantSettings)).toHaveLength(1);
    expect(called.at(-1)).toBe('http://127.0.0.1:7401');
  });

  it('the issuer not answering: the customer is told, in the language shown, what to download from Tools and where this page looks for it', async () => {
    storage.tenantSettings.set({ ...gateSettings, cardIssuerUrl: 'http://127.0.0.1:7401' } as TenantSettings);
    issuerOnPort('none', []);
    installFakeApi({});
    const view = render(
      <MemoryRouter>
        <CardReaderDialog open title="Read" flow={readCard} onClose={() => {}} />
      </MemoryRouter>,
    );
    const advice = (await screen.findByText('card reader not installed or configured')).closest('[role="alert"]')!;
    expect(advice).toHaveTextContent('download "Card issuer" for its system from the Tools page, unpack it and run start.cmd (Windows) or ./start.sh (Linux)');
    expect(advice).toHaveTextContent('This page looks for it at http://127.0.0.1:7401.');
    expect(advice).toHaveTextContent('Set CARD_ISSUER_PORT=7401 before starting it');
    expect(advice).not.toHaveTextContent(/npm/);
    expect(screen.getByRole('link', { name: 'Open the Tools page' })).toHaveAttribute('href', '/tools');
    view.unmount();

    await i18n.changeLanguage('zh-MO');
    storage.tenantSettings.set({ ...gateSettings, cardIssuerUrl: 'http://127.0.0.1:18085' } as TenantSettings);
    render(
      <MemoryRouter>
        <CardReaderDialog open title="Read" flow={readCard} onClose={() => {}} />
      </MemoryRouter>,
    );
    const said = (await screen.findByText('讀卡器未安裝或未設定')).closest('[role="alert"]')!;
    expect(said).toHaveTextContent('從工具頁面下載適合本機系統的「發卡器」');
    expect(said).toHaveTextContent('本頁面在 http://127.0.0.1:18085 連接發卡器');
    // the issuer's own port needs no setting
    expect(said).not.toHaveTextContent('CARD_ISSUER_PORT');
    expect(screen.getByRole('link', { name: '開啟工具頁面' })).toHaveAttribute('target', '_blank');
  });
  it('a card issuer refused for its trust (expired, revoked) shows the server’s message and the way to renew it', async () => {
    installFakeApi({});
    const expired = async () => {
      throw new CardFlowError("This card reader's trust has expired", codes.issuerTrustExpired);
    };
    render(
      <MemoryRouter initialEntries={['/system-keycard']}>
        <CardReaderDialog open title="Read" flow={expired} onClose={() => {}} />
      </MemoryRouter>,
    );
    expect(await screen.findByText("This card reader's trust has expired")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Renew the trust of this card reader (system key card and customer password)' })).toHaveAttribute('href', '/re-swipe-sys-sceret?from=%2Fsystem-keycard');
  });
});
