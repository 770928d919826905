import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { cardIssuerPaths, judgeIssuerVersion, minimumIssuerVersion, shellVersion } from '@campus/contracts';
import { installFakeApi } from '../../../test/fake-api.ts';
import { forgetPairing, issuerCall, pairIssuer, setIssuerFetch } from './card-issuer.ts';
import { readerStep } from './card-flow.ts';
import type { FlowContext } from './card-flow.ts';
import { CardReaderDialog } from './card-reader-dialog.tsx';
import { i18n } from '../i18n.ts';
import { olderIssuerVersion } from './issuer-version.ts';

/** An issuer whose pairing reply names `version` (undefined: an issuer of before, which names none). */
function issuerOfVersion(version: string | undefined, called: string[] = []) {
  setIssuerFetch(async (input) => {
    const path = new URL(String(input)).pathname;
    called.push(path);
    const data = path === cardIssuerPaths.addIdentity ? { deviceId: 'D1', devicePublicKey: '04ab', readerName: 'virtual', ...(version === undefined ? {} : { issuerVersion: version }) } : { fixedNo: 'DE000001' };
    return new Response(JSON.stringify({ code: 0, msg: 'ok', data }), { headers: { 'content-type': 'application/json' } });
  });
}

const readCard = async (ctx: FlowContext) => {
  await readerStep(ctx, 'connecting', pairIssuer);
  const card = await readerStep(ctx, 'reading', () => issuerCall<{ fixedNo: string }>(cardIssuerPaths.readMasterCard));
  return `read ${card.fixedNo}`;
};

function openDialog() {
  return render(
    <MemoryRouter>
      <CardReaderDialog open title="Read" flow={readCard} onClose={() => {}} />
    </MemoryRouter>,
  );
}

beforeEach(async () => {
  forgetPairing();
  installFakeApi({});
  await i18n.changeLanguage('en-US');
});
afterEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('the version rule (packages/contracts)', () => {
  it('fits from the server’s version up, warns below it down to the minimum, blocks below that or without a version', () => {
    expect(minimumIssuerVersion).toBe('3.6.0');
    expect(judgeIssuerVersion('3.6.0.26112601', '3.6.0.26112601').kind).toBe('fits');
    expect(judgeIssuerVersion('3.7.0.1', '3.6.0.26112601').kind).toBe('fits');
    expect(judgeIssuerVersion('3.6.0.26112601', '3.6.1.27010101').kind).toBe('older');
    expect(judgeIssuerVersion('3.6.0', '3.6.0.26112601').kind).toBe('older');
    // numbers, not text: 3.10 is newer than 3.9
    expect(judgeIssuerVersion('3.10.0', '3.9.0').kind).toBe('fits');
    expect(judgeIssuerVersion('3.5.7.24112701', '3.6.0.26112601')).toEqual({ kind: 'tooOld', issuerVersion: '3.5.7.24112701' });
    for (const none of [undefined, null, '', 'dev', '3', 36]) expect(judgeIssuerVersion(none, '3.6.0.26112601'), String(none)).toEqual({ kind: 'tooOld', issuerVersion: null });
  });
});

describe('an issuer older than the server, at pairing', () => {
  it('an issuer that names no version (3.6.0.26112601 and before) is refused before any card call, naming both versions', async () => {
    const called: string[] = [];
    issuerOfVersion(undefined, called);
    const error = await issuerCall(cardIssuerPaths.readMasterCard).catch((e: unknown) => e);
    expect(error).toMatchObject({
      kind: 'outdated',
      message: `The card issuer on this PC is older than version ${minimumIssuerVersion} (it does not report its version); this server is version ${shellVersion} and cannot work with it. Card operations are blocked until the card issuer is updated.`,
    });
    // not made the operating session, and no card touched
    expect(called).toEqual([cardIssuerPaths.addIdentity]);
  });

  it('the dialog says so in the language shown, with how to update and the Tools page, and Try again after the update goes on', async () => {
    const user = userEvent.setup();
    issuerOfVersion('3.5.7.24112701');
    openDialog();
    const alert = (await screen.findByText(/is version 3\.5\.7\.24112701/)).closest('[role="alert"]')!;
    expect(alert).toHaveTextContent(`this server is version ${shellVersion} and works only with card issuer ${minimumIssuerVersion} or newer. Card operations are blocked until the card issuer is updated.`);
    expect(alert).toHaveTextContent('Download the card issuer for this PC\'s system from the Tools page.');
    expect(screen.getByRole('link', { name: 'Open the Tools page' })).toHaveAttribute('href', '/tools');
    expect(screen.queryByText('read DE000001')).toBeNull();
    // the operator installs the new issuer and tries again
    issuerOfVersion(shellVersion);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('read DE000001')).toBeInTheDocument();
  });

  it('in zh-CN and zh-MO too', async () => {
    issuerOfVersion(undefined);
    await i18n.changeLanguage('zh-CN');
    const view = openDialog();
    const simplified = (await screen.findByText(/本机的发卡器早于 3\.6\.0 版本/)).closest('[role="alert"]')!;
    expect(simplified).toHaveTextContent(`本服务器版本为 ${shellVersion}，无法与它配合使用。更新发卡器之前，无法进行卡片操作。`);
    expect(screen.getByRole('link', { name: '打开工具页面' })).toHaveAttribute('href', '/tools');
    view.unmount();
    forgetPairing();
    await i18n.changeLanguage('zh-MO');
    openDialog();
    const traditional = (await screen.findByText(/本機的發卡器早於 3\.6\.0 版本/)).closest('[role="alert"]')!;
    expect(traditional).toHaveTextContent(`本伺服器版本為 ${shellVersion}，無法與它配合使用。更新發卡器之前，無法進行卡片操作。`);
    expect(traditional).toHaveTextContent('請從工具頁面下載適合本機系統的發卡器');
  });

  it('an issuer older than the server but not below the minimum works, with a warning naming both versions', async () => {
    const older = '3.6.0.1';
    expect(judgeIssuerVersion(older).kind).toBe('older');
    issuerOfVersion(older);
    openDialog();
    expect(await screen.findByText('read DE000001')).toBeInTheDocument();
    const warning = screen.getByText(`The card issuer on this PC is version ${older}, older than this server (${shellVersion}). Card operations still work; update the card issuer from the Tools page when you can.`).closest('[role="status"]')!;
    expect(warning).toContainElement(screen.getByRole('link', { name: 'Open the Tools page' }));
    expect(olderIssuerVersion()).toBe(older);
    // an issuer as new as the server: no warning
    forgetPairing();
    issuerOfVersion(shellVersion);
    await pairIssuer();
    expect(olderIssuerVersion()).toBeNull();
  });
});
