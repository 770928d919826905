import fs from 'node:fs';
import { apiPaths, identityProviderKinds } from '@campus/contracts';
import type { CasProviderSettings, IdentityProviderKind, Localised, OidcProviderSettings, SaveIdentityProviderRequest } from '@campus/contracts';
import { AppError } from '../http/envelope.ts';
import type { Services } from '../services.ts';

/** What `campus sso` takes from the command line (parseArgs' values). */
export interface SsoValues {
  tenant?: string;
  file?: string;
  'secret-file'?: string;
  'secret-stdin'?: boolean;
  kind?: string;
  name?: string;
  'name-en-us'?: string;
  'name-zh-cn'?: string;
  'name-zh-mo'?: string;
  'discovery-url'?: string;
  'client-id'?: string;
  scopes?: string;
  claim?: string;
  'server-url'?: string;
  attribute?: string;
  enabled?: boolean;
}

export const ssoHelp = `  campus sso list [--tenant <code>]
      Every identity provider (of the tenant): id, tenant, kind, on or off, name, settings, whether a client secret
      is kept (never the secret), and the addresses to register at the provider (on PUBLIC_URL; docs/sso.md).

  campus sso add --tenant <code> --file <provider.json> [--secret-file <file> | --secret-stdin]
  campus sso add --tenant <code> --kind oidc --name <text> --discovery-url <url> --client-id <id>
                 [--scopes "openid profile"] [--claim preferred_username] [--secret-file <file> | --secret-stdin] [--enabled]
  campus sso add --tenant <code> --kind cas --name <text> --server-url <url> [--attribute <name>] [--enabled]
      Adds a provider, off unless --enabled (or "enabled": true in the file). The file holds the administrator's
      screen's fields (kind, name in en-US, zh-CN and zh-MO, enabled, oidc or cas); --name gives the three names one
      text (--name-en-us, --name-zh-cn, --name-zh-mo one each). The OIDC client secret is read from a file or stdin,
      never from a flag or the provider file, and stored sealed. Written to the tenant's operation log.

  campus sso enable <id> | disable <id> | remove <id>
      Switches a provider on or off (its button on the login page), or removes it (the sessions it opened stay
      until they end). Written to the tenant's operation log.
`;

export class SsoUsageError extends Error {}

function readSecret(values: SsoValues): string | undefined {
  if (values['secret-file'] !== undefined && values['secret-stdin']) throw new SsoUsageError('give the client secret by --secret-file or --secret-stdin, not both');
  let text: string;
  if (values['secret-file'] !== undefined) {
    try {
      text = fs.readFileSync(values['secret-file'], 'utf8');
    } catch (error) {
      throw new SsoUsageError(`cannot read the secret file ${values['secret-file']}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  } else if (values['secret-stdin']) {
    text = fs.readFileSync(0, 'utf8');
  } else {
    return undefined;
  }
  const secret = text.replace(/\r?\n$/, '');
  if (secret === '') throw new SsoUsageError('the client secret read is empty');
  return secret;
}

function fromFile(file: string): SaveIdentityProviderRequest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new SsoUsageError(`cannot read ${file} as JSON: ${error instanceof SyntaxError ? error.message : ((error as NodeJS.ErrnoException).code ?? String(error))}`);
  }
  const request = parsed as Partial<SaveIdentityProviderRequest> | null;
  if (request === null || typeof request !== 'object' || Array.isArray(request)) throw new SsoUsageError(`${file} does not hold a provider (a JSON object)`);
  if (request.id !== undefined) throw new SsoUsageError(`${file}: add makes a new provider, its file names no id`);
  if (request.oidc && 'clientSecret' in request.oidc) throw new SsoUsageError(`${file}: the client secret is never in the provider file: --secret-file or --secret-stdin`);
  if (typeof request.kind !== 'string' || typeof request.name !== 'object' || request.name === null) throw new SsoUsageError(`${file} needs kind and name ({"en-US", "zh-CN", "zh-MO"})`);
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const name = request.name as Partial<Localised>;
  return {
    kind: request.kind as IdentityProviderKind,
    name: { 'en-US': text(name['en-US']), 'zh-CN': text(name['zh-CN']), 'zh-MO': text(name['zh-MO']) },
    enabled: request.enabled === true,
    ...(request.oidc ? { oidc: { discoveryUrl: text(request.oidc.discoveryUrl), clientId: text(request.oidc.clientId), scopes: text(request.oidc.scopes), accountClaim: text(request.oidc.accountClaim) } } : {}),
    ...(request.cas ? { cas: { serverUrl: text(request.cas.serverUrl), accountAttribute: text(request.cas.accountAttribute) } } : {}),
  };
}

function fromFlags(values: SsoValues): SaveIdentityProviderRequest {
  const kind = values.kind;
  if (kind === undefined || !(identityProviderKinds as readonly string[]).includes(kind)) throw new SsoUsageError(`sso add needs --file, or --kind ${identityProviderKinds.join(' or ')}`);
  const base = values.name;
  const name: Localised = { 'en-US': values['name-en-us'] ?? base ?? '', 'zh-CN': values['name-zh-cn'] ?? base ?? '', 'zh-MO': values['name-zh-mo'] ?? base ?? '' };
  if (kind === 'oidc') {
    const oidc: OidcProviderSettings = { discoveryUrl: values['discovery-url'] ?? '', clientId: values['client-id'] ?? '', scopes: values.scopes ?? 'openid profile email', accountClaim: values.claim ?? 'preferred_username' };
    return { kind, name, enabled: values.enabled === true, oidc };
  }
  const cas: CasProviderSettings = { serverUrl: values['server-url'] ?? '', accountAttribute: values.attribute ?? '' };
  return { kind: 'cas', name, enabled: values.enabled === true, cas };
}

/** `campus sso …`: answers the exit code; the caller opens the database and makes the services. */
export async function ssoCommand(services: Services, args: string[], values: SsoValues, actor: { account: string; clientIp: string }, publicUrl: string): Promise<number> {
  const [action, id, ...more] = args;
  const store = services.identityProviders;
  const origin = publicUrl || '<this server>';
  const log = (tenantCode: string, detail: string) => services.logs.record({ tenantCode, account: actor.account, action: 'identity-provider', result: 'success', clientIp: actor.clientIp, detail });
  if (more.length > 0) throw new SsoUsageError(`campus sso ${action}: takes one provider id, not "${more.join(' ')}"`);

  switch (action) {
    case 'list': {
      if (id !== undefined) throw new SsoUsageError('sso list takes no argument (--tenant <code> for one tenant)');
      const rows = values.tenant === undefined ? await store.all() : await store.list(values.tenant);
      if (rows.length === 0) process.stdout.write(values.tenant === undefined ? 'No identity provider is kept.\n' : `Tenant ${values.tenant} has no identity provider.\n`);
      for (const row of rows) {
        const view = store.view(row, origin);
        const settings = view.oidc
          ? `discovery ${view.oidc.discoveryUrl}  client ${view.oidc.clientId}  scopes "${view.oidc.scopes}"  claim ${view.oidc.accountClaim}  secret ${view.oidc.hasClientSecret ? 'kept (sealed)' : 'none'}`
          : `server ${view.cas!.serverUrl}  attribute ${view.cas!.accountAttribute || '(the CAS user)'}`;
        process.stdout.write(`${view.id}  tenant ${view.tenantCode}  ${view.kind}  ${view.enabled ? 'enabled' : 'disabled'}  "${view.name['en-US']}"  ${settings}\n`);
        process.stdout.write(`    register: ${view.kind === 'oidc' ? 'redirect URI' : 'service'} ${view.callbackUrl}${view.backchannelLogoutUrl ? `  back-channel logout ${view.backchannelLogoutUrl}` : ''}\n`);
      }
      if (!publicUrl && rows.length > 0) process.stdout.write(`(PUBLIC_URL is not set: <this server> is the address browsers reach this server at; ${apiPaths.ssoOidcCallback} and the others are under it)\n`);
      return 0;
    }
    case 'add': {
      if (id !== undefined) throw new SsoUsageError('sso add takes no argument: --file <provider.json>, or the settings as flags');
      if (values.tenant === undefined) throw new SsoUsageError('sso add needs --tenant <code>');
      if (!(await services.account.tenant(values.tenant))) throw new SsoUsageError(`no tenant ${values.tenant}`);
      const request = values.file !== undefined ? fromFile(values.file) : fromFlags(values);
      const secret = readSecret(values);
      if (secret !== undefined) {
        if (request.kind !== 'oidc' || !request.oidc) throw new SsoUsageError('a client secret is for an OIDC provider only');
        request.oidc.clientSecret = secret;
      }
      let row;
      try {
        row = await store.save(values.tenant, request);
      } catch (error) {
        if (error instanceof AppError) throw new SsoUsageError(`the provider was not added: ${error.messageIn('en-US')}`);
        throw error;
      }
      await log(row.tenant_code, `added ${row.id} (${row.kind}, ${Number(row.enabled) === 1 ? 'enabled' : 'disabled'})`);
      const view = store.view(row, origin);
      process.stdout.write(`Added ${view.id} (${view.kind}, ${view.enabled ? 'enabled' : 'disabled'}) for tenant ${view.tenantCode}.\n`);
      process.stdout.write(`Register at the provider: ${view.kind === 'oidc' ? 'redirect URI' : 'service'} ${view.callbackUrl}${view.backchannelLogoutUrl ? `, back-channel logout ${view.backchannelLogoutUrl}` : ''}\n`);
      return 0;
    }
    case 'enable':
    case 'disable':
    case 'remove': {
      if (id === undefined) throw new SsoUsageError(`sso ${action} takes the provider's id (campus sso list shows it)`);
      const row = await store.byId(id);
      if (!row) throw new SsoUsageError(`no identity provider ${id}`);
      if (action === 'remove') await store.remove(id);
      else await store.setEnabled(id, action === 'enable');
      const done = action === 'remove' ? 'removed' : `${action}d`;
      await log(row.tenant_code, `${done} ${row.id} (${row.kind})`);
      process.stdout.write(`${row.id} (${row.kind}, tenant ${row.tenant_code}) ${done}.\n`);
      return 0;
    }
    default:
      throw new SsoUsageError(`campus sso ${action ?? ''}: the sso commands are list, add, enable, disable and remove`);
  }
}
