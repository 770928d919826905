import type { IdentityProviderKind, IdentityProviderView, LanguageCode, Localised, SaveIdentityProviderRequest } from '@campus/contracts';
import { languageCodes } from '@campus/contracts';

/** The claims an administrator picks from; any other claim is typed in ("other"). */
export const accountClaimChoices = ['preferred_username', 'email'] as const;
export type AccountClaimChoice = (typeof accountClaimChoices)[number] | 'other';

/** The provider dialog's fields (antd Form values): both kinds' settings, only the chosen kind's are sent. */
export interface ProviderFormValues {
  kind: IdentityProviderKind;
  name: Localised;
  enabled: boolean;
  discoveryUrl: string;
  clientId: string;
  /** '' keeps the stored secret (the server never answers it). */
  clientSecret: string;
  scopes: string;
  claimChoice: AccountClaimChoice;
  otherClaim: string;
  serverUrl: string;
  /** '' names the account by the CAS user itself. */
  accountAttribute: string;
}

export const defaultScopes = 'openid profile email';

const emptyNames = (): Localised => Object.fromEntries(languageCodes.map((code) => [code, ''])) as Localised;

/** The dialog's fields for a provider, or for a new one (OpenID Connect, switched off until tried). */
export function formFromView(view: IdentityProviderView | null): ProviderFormValues {
  const claim = view?.oidc?.accountClaim ?? 'preferred_username';
  const chosen = (accountClaimChoices as readonly string[]).includes(claim);
  return {
    kind: view?.kind ?? 'oidc',
    name: { ...emptyNames(), ...(view?.name ?? {}) },
    enabled: view?.enabled ?? false,
    discoveryUrl: view?.oidc?.discoveryUrl ?? '',
    clientId: view?.oidc?.clientId ?? '',
    clientSecret: '',
    scopes: view?.oidc?.scopes ?? defaultScopes,
    claimChoice: chosen ? (claim as AccountClaimChoice) : 'other',
    otherClaim: chosen ? '' : claim,
    serverUrl: view?.cas?.serverUrl ?? '',
    accountAttribute: view?.cas?.accountAttribute ?? '',
  };
}

/** What Save (and Test connection) sends: the chosen kind's settings; an empty secret is left out, so the stored one stays. */
export function requestFromForm(values: ProviderFormValues, id: string | null): SaveIdentityProviderRequest {
  const name = Object.fromEntries(languageCodes.map((code) => [code, (values.name?.[code] ?? '').trim()])) as Localised;
  const request: SaveIdentityProviderRequest = { ...(id ? { id } : {}), kind: values.kind, name, enabled: values.enabled };
  if (values.kind === 'oidc') {
    const secret = values.clientSecret ?? '';
    request.oidc = {
      discoveryUrl: values.discoveryUrl.trim(),
      clientId: values.clientId.trim(),
      scopes: values.scopes.trim().split(/\s+/).filter(Boolean).join(' '),
      accountClaim: values.claimChoice === 'other' ? values.otherClaim.trim() : values.claimChoice,
      ...(secret !== '' ? { clientSecret: secret } : {}),
    };
  } else {
    request.cas = { serverUrl: values.serverUrl.trim(), accountAttribute: values.accountAttribute.trim() };
  }
  return request;
}

/** A provider as it is, switched on or off (the list's switch): the secret is not sent, so it stays. */
export function requestWithEnabled(view: IdentityProviderView, enabled: boolean): SaveIdentityProviderRequest {
  return requestFromForm({ ...formFromView(view), enabled }, view.id);
}

/** The name shown for a provider: in the viewer's language, else the first one given. */
export function providerName(name: Localised, language: string): string {
  const own = name[language as LanguageCode];
  return own || languageCodes.map((code) => name[code]).find(Boolean) || '';
}

/** An address a provider's settings take: http or https, absolute. */
export function isWebAddress(value: string): boolean {
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** An antd form field: one name or a path (['name', 'en-US']). */
export type FieldPath = keyof ProviderFormValues | ['name', LanguageCode];

/**
 * The field a server refusal of the settings names (its data's `field`: 'discoveryUrl', 'oidc.clientId',
 * 'name.zh-MO', …), so the message shows beside it; null when it names none the dialog shows.
 */
export function fieldOfRefusal(data: unknown, values: Pick<ProviderFormValues, 'claimChoice'>): FieldPath | null {
  const field = (data as { field?: unknown } | null | undefined)?.field;
  if (typeof field !== 'string') return null;
  const path = field.replace(/^(oidc|cas)\./, '');
  const nameMatch = /^name\.(.+)$/.exec(path);
  if (nameMatch) return (languageCodes as readonly string[]).includes(nameMatch[1]!) ? ['name', nameMatch[1] as LanguageCode] : null;
  if (path === 'accountClaim') return values.claimChoice === 'other' ? 'otherClaim' : 'claimChoice';
  const known: (keyof ProviderFormValues)[] = ['kind', 'discoveryUrl', 'clientId', 'clientSecret', 'scopes', 'serverUrl', 'accountAttribute'];
  return (known as string[]).includes(path) ? (path as keyof ProviderFormValues) : null;
}
