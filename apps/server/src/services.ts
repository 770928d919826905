import os from 'node:os';
import { digestModeFor, shellVersion } from '@campus/contracts';
import type { Kysely } from 'kysely';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import type { DB } from './db/schema.ts';
import type { Clock } from './http/types.ts';
import { AccountRepository } from './modules/account/account-repository.ts';
import { AccountService } from './modules/account/account-service.ts';
import { PasswordChangeService } from './modules/account/password-change-service.ts';
import type { InTransaction } from './modules/account/password-change-service.ts';
import { AuthRepository } from './modules/sessions/auth-repository.ts';
import { CaptchaService, randomCaptchaText } from './modules/auth/captcha-service.ts';
import { defaultLdapClientFactory } from './modules/auth/ldap-directory.ts';
import type { LdapClientFactory } from './modules/auth/ldap-directory.ts';
import { LockoutService } from './modules/sessions/lockout-service.ts';
import { CustomerPasswordAttempts } from './modules/gm-account/customer-password-attempts.ts';
import { KeyCardIssuerTrust } from './modules/system-key-card/key-card-issuer-trust.ts';
import { LoginService } from './modules/auth/login-service.ts';
import { SessionService } from './modules/sessions/session-service.ts';
import { BackupLogRepository } from './modules/backup-log/backup-log-repository.ts';
import { BackupLogService } from './modules/backup-log/backup-log-service.ts';
import { EnterpriseRepository } from './modules/enterprise/enterprise-repository.ts';
import { EnterpriseService } from './modules/enterprise/enterprise-service.ts';
import { LicenceRepository } from './modules/licence/licence-repository.ts';
import { LicenceService } from './modules/licence/licence-service.ts';
import { trustListFor } from './modules/licence/licence-trust.ts';
import { MenuRepository } from './modules/menu/menu-repository.ts';
import { MenuCatalogue } from './modules/menu/menu-catalogue.ts';
import { MenuService } from './modules/menu/menu-service.ts';
import { OperationLogRepository } from './modules/operation-log/operation-log-repository.ts';
import { OperationLogService } from './modules/operation-log/operation-log-service.ts';
import { OssRepository } from './modules/oss/oss-repository.ts';
import { OssService } from './modules/oss/oss-service.ts';
import { PasswordSealService } from './modules/password-seal/password-seal-service.ts';
import { SealKeyRepository } from './modules/password-seal/seal-key-repository.ts';
import { SubAppFiles } from './modules/sub-app/sub-app-files.ts';
import { SubAppRegistry } from './modules/sub-app/sub-app-registry.ts';
import { SubAppRegistrations } from './modules/sub-app/sub-app-registrations.ts';
import { ToolsService } from './modules/tools/tools-service.ts';
import { ReportableVersions } from './modules/version/reportable-versions.ts';
import { VersionRepository } from './modules/version/version-repository.ts';
import { VersionService, serverServiceName } from './modules/version/version-service.ts';
import { AdminLoginCardService } from './modules/admin-login-card/admin-login-card-service.ts';
import { GmAccountService } from './modules/gm-account/gm-account-service.ts';
import { SystemKeyVault } from './modules/gm-account/system-key-vault.ts';
import { KekSealer } from './lib/kek-seal.ts';
import { IdentityProviderStore } from './modules/sso/identity-providers.ts';
import { SsoService } from './modules/sso/sso-service.ts';
import type { ProtocolClients } from './modules/sso/sso-service.ts';
import { CasClient } from './modules/sso/cas-client.ts';
import { lazyProtocolClient } from './modules/sso/lazy-client.ts';
import { providerFetch } from './modules/sso/provider-fetch.ts';
import { pruneEndedSsoRows } from './modules/sso/sso-rows-pruning.ts';
import { ProviderNetworkPolicy } from './lib/outbound-addresses.ts';
import { AdminCardLifecycle } from './modules/admin-login-card/admin-card-lifecycle.ts';
import { seedDemoCards } from './seed/demo-cards.ts';
import { KeyCardLifecycle } from './modules/system-key-card/key-card-lifecycle.ts';
import { SystemKeyCardService } from './modules/system-key-card/system-key-card-service.ts';
import { IssuedCards } from './modules/card-primitives/issued-cards.ts';

export interface ServiceOptions {
  now?: Clock;
  /**
   * Trust the repository's test licence keys (when LICENCE_TRUST_FILE is unset): only on a demo installation
   * (see demoInstallation). Default: outside production, which is what seeding the demo needs.
   */
  trustTestKeys?: boolean;
  captchaText?: () => string;
  ldapClientFactory?: LdapClientFactory;
  /** Replaces the protocol clients of external sign-in (tests play the provider). */
  ssoClients?: Partial<ProtocolClients>;
}

export type Services = ReturnType<typeof createServices>;

/** Whether the database was seeded with the demo: then, and only then, the test licence keys are trusted. */
export async function isDemoInstallation(handle: DatabaseHandle): Promise<boolean> {
  return (await new LicenceRepository(handle.db).installation())?.seed === 'demo';
}

/** Wires every area's repository and service over one database handle. */
export function createServices(handle: DatabaseHandle, config: Config, options: ServiceOptions = {}) {
  const offset = config.testClockOffsetMs;
  const now = options.now ?? (offset === 0 ? Date.now : () => Date.now() + offset);
  const db = handle.db;
  const fixedCaptcha = config.testCaptchaText;
  const captchaText = options.captchaText ?? (fixedCaptcha ? () => fixedCaptcha : randomCaptchaText);

  const digestMode = digestModeFor(config.mjSystem);
  const sessionIdleMs = config.sessionIdleMinutes * 60_000;
  const sessionMaxMs = config.sessionMaxHours * 3600_000;
  const account = new AccountService({ repo: new AccountRepository(db), digestMode, now });
  const logs = new OperationLogService({ repo: new OperationLogRepository(db), now });
  const authRepo = new AuthRepository(db, handle.dialect);
  const sessions = new SessionService({ repo: authRepo, idleMs: sessionIdleMs, maxMs: sessionMaxMs, now, pruneWith: pruneEndedSsoRows });
  const captcha = new CaptchaService({ repo: authRepo, text: captchaText, now });
  const lockout = new LockoutService({ repo: authRepo, addressLimit: config.addressFailureLimit, now });
  const menuRepository = new MenuRepository(db);
  const menuCatalogue = new MenuCatalogue({ repo: menuRepository, now });
  const menu = new MenuService({ repo: menuRepository, catalogue: menuCatalogue });
  const login = new LoginService({
    account,
    sessions,
    captcha,
    lockout,
    logs,
    menu,
    imageCode: config.imageCode,
    ldap: config.ldap,
    ldapClientFactory: options.ldapClientFactory ?? defaultLdapClientFactory,
    now,
  });
  const licence = new LicenceService({ repo: new LicenceRepository(db), trust: trustListFor(config.licenceTrustFile, options.trustTestKeys ?? !config.isProduction), logs, now });
  const oss = new OssService({ repo: new OssRepository(db), now });
  const tools = new ToolsService({
    dataDir: config.dataDir,
    issuerDownloads: config.nationalCrypto ? { dir: config.issuerDownloadsDir, guide: config.operatorGuideFile } : null,
    sdkDownloadsDir: config.sdkDownloadsDir,
  });
  const seal = new PasswordSealService({ repo: new SealKeyRepository(db), now });
  const backupLogs = new BackupLogService({ repo: new BackupLogRepository(db), now });
  const enterprise = new EnterpriseService({ repo: new EnterpriseRepository(db), sources: { sessions, licence }, now });
  const subAppFiles = new SubAppFiles({ subAppsDir: config.subAppsDir, bundled: config.bundledSubApps });
  const subAppRegistrations = new SubAppRegistrations({ db, menu, catalogue: menuCatalogue, account, logs, now, httpHosts: config.subAppHttpHosts });
  const subApps = new SubAppRegistry({
    systems: menu,
    overrides: config.subAppEntries,
    holdsBuild: async (folderPath) => (await subAppFiles.lookup(folderPath)).kind === 'file',
    registered: (stamp) => subAppRegistrations.entries(stamp),
  });
  const versions = new VersionService({
    repo: new VersionRepository(db),
    reportable: new ReportableVersions({ registry: subApps, files: subAppFiles }),
    own: { address: os.hostname(), serviceName: serverServiceName, version: shellVersion },
    now,
  });
  /** The account, session and log services over one transaction (for writes that must land together). */
  const inTransaction: InTransaction = (work) => db.transaction().execute((trx: Kysely<DB>) => work({ account: account.over(trx), sessions: sessions.over(trx), logs: logs.over(trx) }));
  const passwordChange = new PasswordChangeService({ account, lockout, logs, seal, inTransaction });

  // secrets sealed at rest under the KEK file (lib/kek-seal.ts): the gate system key, identity providers' secrets
  const kek = new KekSealer(config.systemKeyKekFile);

  // external sign-in through a tenant's identity providers (issue 49, docs/sso.md)
  // every call to a provider goes through the operator's outbound policy (SSO_PROVIDER_NETWORKS), checked at connect time
  const providerNetworks = new ProviderNetworkPolicy(config.ssoProviderNetworks);
  const toProvider = providerFetch({ policy: providerNetworks });
  const identityProviders = new IdentityProviderStore({ db, sealer: kek, now, networks: providerNetworks });
  const ssoClients: ProtocolClients = {
    oidc: options.ssoClients?.oidc ?? lazyProtocolClient('oidc', async () => new (await import('./modules/sso/oidc-client.ts')).OidcClient({ now, fetch: toProvider })),
    cas: options.ssoClients?.cas ?? new CasClient({ fetch: toProvider }),
  };
  const sso = new SsoService({ db, store: identityProviders, clients: ssoClients, account, login, sessions, logs, now });

  // gate deployments: the set-up, the system key card and the administrator login cards (docs/cards.md)
  const issued = new IssuedCards(db);
  const customerPasswordAttempts = new CustomerPasswordAttempts(lockout);
  const gm = new GmAccountService({
    db,
    vault: new SystemKeyVault(kek),
    licence,
    logs,
    attempts: customerPasswordAttempts,
    mjSystem: config.mjSystem,
    now,
    issuerTrustTtlMs: config.issuerTrustHours * 3_600_000,
    issued,
    afterInit: async (trx) => {
      if (config.demoCards && (await new LicenceRepository(trx).installation())?.seed === 'demo') await seedDemoCards(trx, now());
    },
  });
  const keyCardDeps = { db, gm, issued, logs, now };
  const systemKeyCards = new SystemKeyCardService(keyCardDeps);
  const keyCardLifecycle = new KeyCardLifecycle({ ...keyCardDeps, attempts: customerPasswordAttempts });
  const adminCardDeps = { db, gm, issued, account, lockout, logs, login, seal, sessions, now };
  const adminCards = new AdminLoginCardService(adminCardDeps);
  const adminCardLifecycle = new AdminCardLifecycle(adminCardDeps);
  const keyCardTrust = new KeyCardIssuerTrust({ keyCards: systemKeyCards, gm, attempts: customerPasswordAttempts, logs });
  return {
    account, logs, sessions, captcha, lockout, login, menu, licence, oss, tools, seal, passwordChange, backupLogs, enterprise, versions, subAppFiles, subApps, subAppRegistrations,
    gm, systemKeyCards, adminCards, adminCardLifecycle, keyCardLifecycle, keyCardTrust, identityProviders, sso, now,
  };
}
