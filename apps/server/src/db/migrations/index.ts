import type { Migration } from 'kysely';
import type { Dialect } from '../database.ts';
import { migration as initial } from './0001_initial.ts';
import { migration as tenantSkin } from './0002_tenant_skin.ts';
import { migration as serverKeys } from './0003_server_keys.ts';
import { migration as menuFrameUrl } from './0004_menu_frame_url.ts';
import { migration as backupLogs } from './0005_backup_logs.ts';
import { migration as enterpriseData } from './0006_enterprise_data.ts';
import { migration as programVersions } from './0007_program_versions.ts';
import { migration as tenantSearchIndexes } from './0008_tenant_search_indexes.ts';
import { migration as signedLicences } from './0009_signed_licences.ts';
import { migration as sessionPasswordChange } from './0010_session_password_change.ts';
import { migration as fairLockout } from './0011_fair_lockout.ts';
import { migration as installationSeed } from './0012_installation_seed.ts';
import { migration as oneVersionPerProgram } from './0013_one_version_per_program.ts';
import { migration as gateCards } from './0014_gate_cards.ts';
import { migration as cardSearch } from './0015_card_search.ts';
import { migration as subAppRegistrations } from './0016_sub_app_registrations.ts';
import { migration as changeStamps } from './0017_change_stamps.ts';
import { migration as cardIssueHistory } from './0018_card_issue_history.ts';
import { migration as masterTokenIssuer } from './0019_master_token_issuer.ts';
import { migration as trustedIssuerRegistry } from './0020_trusted_issuer_registry.ts';
import { migration as installationAdmin } from './0021_installation_admin.ts';
import { migration as customerPasswordGuard } from './0022_customer_password_guard.ts';
import { migration as cardLoginSetting } from './0023_card_login_setting.ts';
import { migration as identityProviders } from './0024_identity_providers.ts';
import { migration as ssoLogoutTokens } from './0025_sso_logout_tokens.ts';

/**
 * Every migration of the server, in the order they run: one file each, named as the migration, and listed here by
 * hand (the release bundles the server into one file, so nothing reads this folder at run time). A test holds this
 * list to the folder: every file, in order, and nothing else. Never edit a migration that shipped: add a new one.
 */
export const migrationList: readonly (readonly [name: string, migration: (dialect: Dialect) => Migration])[] = [
  ['0001_initial', initial],
  ['0002_tenant_skin', tenantSkin],
  ['0003_server_keys', serverKeys],
  ['0004_menu_frame_url', menuFrameUrl],
  ['0005_backup_logs', backupLogs],
  ['0006_enterprise_data', enterpriseData],
  ['0007_program_versions', programVersions],
  ['0008_tenant_search_indexes', tenantSearchIndexes],
  ['0009_signed_licences', signedLicences],
  ['0010_session_password_change', sessionPasswordChange],
  ['0011_fair_lockout', fairLockout],
  ['0012_installation_seed', installationSeed],
  ['0013_one_version_per_program', oneVersionPerProgram],
  ['0014_gate_cards', gateCards],
  ['0015_card_search', cardSearch],
  ['0016_sub_app_registrations', subAppRegistrations],
  ['0017_change_stamps', changeStamps],
  ['0018_card_issue_history', cardIssueHistory],
  ['0019_master_token_issuer', masterTokenIssuer],
  ['0020_trusted_issuer_registry', trustedIssuerRegistry],
  ['0021_installation_admin', installationAdmin],
  ['0022_customer_password_guard', customerPasswordGuard],
  ['0023_card_login_setting', cardLoginSetting],
  ['0024_identity_providers', identityProviders],
  ['0025_sso_logout_tokens', ssoLogoutTokens],
];
