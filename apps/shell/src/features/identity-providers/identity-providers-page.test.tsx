import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { IdentityProviderView, SaveIdentityProviderRequest } from '@campus/contracts';
import { apiPaths, codeMessage, codes } from '@campus/contracts';
import { i18n } from '../../lib/i18n.ts';
import { installFakeApi, type FakeAnswer, type SeenCall } from '../../../test/fake-api.ts';
import { renderShell } from '../../../test/render-shell.tsx';
import IdentityProvidersPage from './identity-providers-page.tsx';

const stored = (request: SaveIdentityProviderRequest, id: string): IdentityProviderView => ({
  id,
  tenantCode: '1001',
  kind: request.kind,
  name: request.name,
  enabled: request.enabled,
  oidc: request.oidc ? { discoveryUrl: request.oidc.discoveryUrl, clientId: request.oidc.clientId, scopes: request.oidc.scopes, accountClaim: request.oidc.accountClaim, hasClientSecret: true } : null,
  cas: request.cas ?? null,
  callbackUrl: 'https://campus.example/iot-login/api/v1.0/SSO/OidcCallback',
  backchannelLogoutUrl: `https://campus.example/iot-login/api/v1.0/SSO/BackchannelLogout?providerId=${id}`,
  updatedAt: Date.UTC(2026, 11, 3, 9, 0),
});

let providers: IdentityProviderView[] = [];
let isSystemAdmin = true;
let saveAnswer: ((request: SaveIdentityProviderRequest) => FakeAnswer) | null = null;
let seen: SeenCall[] = [];

beforeEach(async () => {
  providers = [];
  isSystemAdmin = true;
  saveAnswer = null;
  await i18n.changeLanguage('en-US');
  seen = installFakeApi({
    [apiPaths.userDetail]: () => ({ data: { name: 'Admin', isSystemAdmin, tenantCode: '1001' } }),
    [apiPaths.identityProviderList]: () => ({ data: providers }),
    [apiPaths.identityProviderSave]: (call) => {
      const request = call.body as SaveIdentityProviderRequest;
      if (saveAnswer) return saveAnswer(request);
      const view = stored(request, request.id ?? `idp-${providers.length + 1}`);
      providers = [...providers.filter((provider) => provider.id !== view.id), view];
      return { data: view };
    },
    [apiPaths.identityProviderDelete]: (call) => {
      providers = providers.filter((provider) => provider.id !== (call.body as { id: string }).id);
      return { data: null };
    },
    [apiPaths.identityProviderTest]: () => ({
      data: {
        ok: false,
        steps: [
          { step: 'discovery', ok: true, detail: 'Discovery document read' },
          { step: 'keys', ok: false, detail: 'No signing keys at jwks_uri' },
        ],
        clockSkewSeconds: 3,
      },
    }),
  });
});

afterEach(() => {
  localStorage.clear();
});

/** Types a field's value at once (typing key by key through antd takes seconds a field in jsdom). */
const fill = (field: HTMLElement, value: string) => fireEvent.change(field, { target: { value } });

async function fillNewOidc() {
  await userEvent.click(await screen.findByRole('button', { name: /Add provider$/ }));
  const dialog = await screen.findByRole('dialog', { name: 'Add identity provider' });
  fill(within(dialog).getByLabelText('Name in English'), 'Campus ID');
  fill(within(dialog).getByLabelText('Name in Simplified Chinese'), '校园统一身份');
  fill(within(dialog).getByLabelText('Name in Traditional Chinese'), '校園統一身分');
  fill(within(dialog).getByLabelText('Discovery URL'), 'https://sso.example.edu/.well-known/openid-configuration');
  fill(within(dialog).getByLabelText('Client ID'), 'campus');
  fill(within(dialog).getByLabelText('Client secret'), 's3cret');
  return dialog;
}

describe('the identity providers screen (issue 49)', () => {
  it('checks the fields inline before anything is sent', async () => {
    renderShell(<IdentityProvidersPage />);
    expect(await screen.findByText('No identity provider yet')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /Add provider$/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Add identity provider' });
    fill(within(dialog).getByLabelText('Discovery URL'), 'sso.example.edu');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Name in English cannot be empty')).toBeInTheDocument();
    expect(within(dialog).getByText('Client secret cannot be empty')).toBeInTheDocument();
    expect(within(dialog).getByText('Enter an address starting with https:// (http:// only for this machine)')).toBeInTheDocument();
    expect(seen.some((call) => call.url === apiPaths.identityProviderSave)).toBe(false);
  });

  it('tests the settings as they stand and shows each step', async () => {
    renderShell(<IdentityProvidersPage />);
    const dialog = await fillNewOidc();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Test connection' }));
    expect(await within(dialog).findByText('The connection does not work yet')).toBeInTheDocument();
    expect(within(dialog).getByText('No signing keys at jwks_uri')).toBeInTheDocument();
    expect(within(dialog).getByText('Signing keys')).toBeInTheDocument();
    expect(within(dialog).getByText("The provider's clock differs from the server's by 3 s.")).toBeInTheDocument();
    const tested = seen.find((call) => call.url === apiPaths.identityProviderTest)!.body as SaveIdentityProviderRequest;
    expect(tested).toMatchObject({ kind: 'oidc', oidc: { clientId: 'campus', clientSecret: 's3cret', accountClaim: 'preferred_username' } });
  });

  it('a new provider, once saved, shows the addresses to register and keeps its secret unseen', async () => {
    renderShell(<IdentityProvidersPage />);
    const dialog = await fillNewOidc();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(/Register the addresses below at the provider/)).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Redirect URI')).toHaveValue('https://campus.example/iot-login/api/v1.0/SSO/OidcCallback');
    expect(within(dialog).getByLabelText('Back-channel logout URI')).toHaveValue('https://campus.example/iot-login/api/v1.0/SSO/BackchannelLogout?providerId=idp-1');
    expect(within(dialog).getByRole('button', { name: 'Copy Redirect URI' })).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Client secret')).toHaveValue('');
    expect(within(dialog).getByText(/A secret is kept/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(await screen.findByRole('cell', { name: 'Campus ID' })).toBeInTheDocument();
  });

  it('a refusal of the settings shows the server\'s message beside the field it names', async () => {
    saveAnswer = () => ({ status: 400, body: { code: codes.ssoProviderConfigInvalid, msg: 'The sign-in service settings are not valid: discovery URL', data: { field: 'oidc.discoveryUrl' } } });
    renderShell(<IdentityProvidersPage />);
    const dialog = await fillNewOidc();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('The sign-in service settings are not valid: discovery URL')).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).getByLabelText('Discovery URL')).toHaveAttribute('aria-invalid', 'true'));
  });

  it('an address on a network the operator has not opened is refused beside the address field', async () => {
    const msg = codeMessage(codes.ssoProviderAddressRefused, 'en-US', { field: 'oidc.discoveryUrl', setting: 'SSO_PROVIDER_NETWORKS' });
    saveAnswer = () => ({ status: 400, body: { code: codes.ssoProviderAddressRefused, msg, data: { field: 'oidc.discoveryUrl' } } });
    renderShell(<IdentityProvidersPage />);
    const dialog = await fillNewOidc();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(msg)).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).getByLabelText('Discovery URL')).toHaveAttribute('aria-invalid', 'true'));
  });

  it('switches a provider on from the list, keeping its secret, and deletes one after a confirmation', async () => {
    providers = [stored({ kind: 'cas', name: { 'en-US': 'Library CAS', 'zh-CN': '图书馆', 'zh-MO': '圖書館' }, enabled: false, cas: { serverUrl: 'https://cas.example.edu/cas', accountAttribute: '' } }, 'idp-9')];
    renderShell(<IdentityProvidersPage />);
    await userEvent.click(await screen.findByRole('switch', { name: 'Switch on Library CAS' }));
    expect(await screen.findByText('Library CAS is switched on: the login page offers it.')).toBeInTheDocument();
    expect(seen.find((call) => call.url === apiPaths.identityProviderSave)!.body).toEqual({
      id: 'idp-9',
      kind: 'cas',
      name: { 'en-US': 'Library CAS', 'zh-CN': '图书馆', 'zh-MO': '圖書館' },
      enabled: true,
      cas: { serverUrl: 'https://cas.example.edu/cas', accountAttribute: '' },
    });

    await userEvent.click(screen.getByRole('button', { name: 'Delete Library CAS' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete identity provider' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Library CAS was deleted.')).toBeInTheDocument();
    expect(seen.find((call) => call.url === apiPaths.identityProviderDelete)!.body).toEqual({ id: 'idp-9' });
    expect(await screen.findByText('No identity provider yet')).toBeInTheDocument();
  });

  it('is not offered to someone who is not a system administrator, and lists nothing for him', async () => {
    isSystemAdmin = false;
    renderShell(<IdentityProvidersPage />);
    expect(await screen.findByText('Only a system administrator of the tenant keeps its identity providers.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Add provider$/ })).toBeNull();
    expect(seen.some((call) => call.url === apiPaths.identityProviderList)).toBe(false);
  });
});
