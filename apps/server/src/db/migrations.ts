import { Migrator, sql } from 'kysely';
import type { Kysely, Migration, MigrationProvider } from 'kysely';
import type { DB } from './schema.ts';
import type { Dialect } from './database.ts';
import { createChangeStamps } from './change-stamps.ts';
import { keepCardIssueHistory } from './card-issue-history.ts';
import { addTrustedIssuerRegistry } from './trusted-issuer-registry.ts';

/** In-code migrations, applied in name order on start. Never edit one that shipped: add a new one. */
function migrations(dialect: Dialect): Record<string, Migration> {
  const blob = dialect === 'postgres' ? sql`bytea` : sql`blob`;
  return {
    '0001_initial': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('tenants')
          .addColumn('code', 'text', (c) => c.primaryKey())
          .addColumn('name_i18n', 'text', (c) => c.notNull())
          .addColumn('system_name_i18n', 'text', (c) => c.notNull())
          .addColumn('header_logo_id', 'text')
          .addColumn('login_logo_id', 'text')
          .addColumn('login_bg_id', 'text')
          .addColumn('system_logo_id', 'text')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('users')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('tenant_code', 'text', (c) => c.notNull().references('tenants.code'))
          .addColumn('account', 'text', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('password_hash', 'text', (c) => c.notNull())
          .addColumn('digest_mode', 'text', (c) => c.notNull())
          .addColumn('is_system_admin', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('is_disabled', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('is_first_login', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('pwd_edit_reason', 'integer')
          .addColumn('pwd_locking_time', 'bigint')
          .addColumn('language', 'text', (c) => c.notNull())
          .addColumn('utc_diff', 'integer', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addUniqueConstraint('users_tenant_account', ['tenant_code', 'account'])
          .execute();
        await db.schema.createIndex('users_account').on('users').column('account').execute();
        await db.schema
          .createTable('sessions')
          .addColumn('token_hash', 'text', (c) => c.primaryKey())
          .addColumn('user_id', 'text', (c) => c.notNull())
          .addColumn('tenant_code', 'text', (c) => c.notNull())
          .addColumn('account', 'text', (c) => c.notNull())
          .addColumn('login_type', 'integer', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
          .addColumn('idle_expires_at', 'bigint', (c) => c.notNull())
          .addColumn('absolute_expires_at', 'bigint', (c) => c.notNull())
          .addColumn('revoked_at', 'bigint')
          .execute();
        await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
        await db.schema
          .createTable('captchas')
          .addColumn('key_hash', 'text', (c) => c.primaryKey())
          .addColumn('answer_hash', 'text', (c) => c.notNull())
          .addColumn('expires_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('login_failures')
          .addColumn('scope', 'text', (c) => c.notNull())
          .addColumn('key', 'text', (c) => c.notNull())
          .addColumn('failures', 'integer', (c) => c.notNull())
          .addColumn('lock_count', 'integer', (c) => c.notNull())
          .addColumn('locked_until', 'bigint')
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('login_failures_pk', ['scope', 'key'])
          .execute();
        await db.schema
          .createTable('operation_logs')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('tenant_code', 'text', (c) => c.notNull())
          .addColumn('account', 'text', (c) => c.notNull())
          .addColumn('action', 'text', (c) => c.notNull())
          .addColumn('result', 'text', (c) => c.notNull())
          .addColumn('client_ip', 'text', (c) => c.notNull())
          .addColumn('detail', 'text')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('operation_logs_created').on('operation_logs').column('created_at').execute();
        await db.schema
          .createTable('menu_systems')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('app_no', 'text', (c) => c.notNull().unique())
          .addColumn('app_id', 'text', (c) => c.notNull())
          .addColumn('front_routing_addr', 'text', (c) => c.notNull())
          .addColumn('label_i18n', 'text', (c) => c.notNull())
          .addColumn('sort_num', 'integer', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('menu_pages')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('app_no', 'text', (c) => c.notNull())
          .addColumn('parent_id', 'text')
          .addColumn('path', 'text', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('title_i18n', 'text', (c) => c.notNull())
          .addColumn('sort_num', 'integer', (c) => c.notNull())
          .addColumn('is_func_right', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('func_right_perms', 'text', (c) => c.notNull())
          .addColumn('is_side', 'integer', (c) => c.notNull().defaultTo(1))
          .addColumn('icon', 'text')
          .execute();
        await db.schema
          .createTable('permission_grants')
          .addColumn('user_id', 'text', (c) => c.notNull())
          .addColumn('app_code', 'text', (c) => c.notNull())
          .addColumn('func_ids', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('permission_grants_pk', ['user_id', 'app_code'])
          .execute();
        await db.schema
          .createTable('licences')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('code', 'text', (c) => c.notNull())
          .addColumn('begin_time', 'bigint', (c) => c.notNull())
          .addColumn('end_time', 'bigint', (c) => c.notNull())
          .addColumn('activate_time', 'bigint')
          .addColumn('state', 'integer', (c) => c.notNull())
          .addColumn('license_type', 'integer', (c) => c.notNull())
          .addColumn('is_formal', 'integer', (c) => c.notNull())
          .addColumn('emp_count', 'integer', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('oss_objects')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('content_type', 'text', (c) => c.notNull())
          .addColumn('body', blob, (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
      },
    },
    '0002_tenant_skin': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .alterTable('tenants')
          .addColumn('skin', 'text', (c) => c.notNull().defaultTo('DASUI001'))
          .execute();
      },
    },
    '0003_server_keys': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('server_keys')
          .addColumn('name', 'text', (c) => c.primaryKey())
          .addColumn('private_key', 'text', (c) => c.notNull())
          .addColumn('public_key', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
      },
    },
    '0004_menu_frame_url': {
      async up(db: Kysely<unknown>) {
        // report pages show a backend page in an embedded frame instead of a sub-application
        await db.schema.alterTable('menu_pages').addColumn('frame_url', 'text').execute();
      },
    },
    '0005_backup_logs': {
      async up(db: Kysely<unknown>) {
        // one row per backup of this installation (database dumps, log archives), shown on private deployments
        await db.schema
          .createTable('backup_logs')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('backup_time', 'bigint', (c) => c.notNull())
          .addColumn('file_path', 'text', (c) => c.notNull())
          .addColumn('addr', 'text', (c) => c.notNull())
          .addColumn('retention_day', 'integer', (c) => c.notNull())
          .addColumn('size', 'bigint', (c) => c.notNull())
          .addColumn('remarks', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('backup_logs_time').on('backup_logs').columns(['backup_time', 'id']).execute();
      },
    },
    '0006_enterprise_data': {
      async up(db: Kysely<unknown>) {
        // the enterprise-data (qy) organisation: departments (a tree) and their employees, per tenant
        await db.schema
          .createTable('departments')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('tenant_code', 'text', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('parent_id', 'text', (c) => c.references('departments.id'))
          .addColumn('sort_num', 'integer', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('departments_tenant').on('departments').column('tenant_code').execute();
        await db.schema
          .createTable('employees')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('tenant_code', 'text', (c) => c.notNull())
          .addColumn('code', 'text', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('department_id', 'text', (c) => c.notNull().references('departments.id'))
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        // an employee code is unique within its tenant; led by tenant_code, the index also serves per-tenant reads
        await db.schema.createIndex('employees_tenant_code').on('employees').columns(['tenant_code', 'code']).unique().execute();
      },
    },
    '0007_program_versions': {
      async up(db: Kysely<unknown>) {
        // the latest version each program (service) reported from each address (ReportVersion)
        await db.schema
          .createTable('program_versions')
          .addColumn('address', 'text', (c) => c.notNull())
          .addColumn('service_name', 'text', (c) => c.notNull())
          .addColumn('version', 'text', (c) => c.notNull())
          .addColumn('reported_at', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('program_versions_pk', ['address', 'service_name'])
          .execute();
      },
    },
    '0008_tenant_search_indexes': {
      async up(db: Kysely<unknown>) {
        // The operation log is read per tenant, newest first (id breaks ties): this index serves both the
        // filter and the order; the time-only index of 0001 served no query and is dropped.
        await db.schema.createIndex('operation_logs_tenant_time').on('operation_logs').columns(['tenant_code', 'created_at', 'id']).execute();
        await db.schema.dropIndex('operation_logs_created').execute();
        // live sessions are counted per tenant (enterprise-data home figures)
        await db.schema.createIndex('sessions_tenant_idle').on('sessions').columns(['tenant_code', 'idle_expires_at']).execute();
      },
    },
    '0009_signed_licences': {
      async up(db: Kysely<unknown>) {
        // Licences become signed files that are re-verified when evaluated. Rows of 0001 had no file, so
        // they cannot be verified and are dropped (a demo data folder gets its licence again by a fresh seed).
        await db.schema.dropTable('licences').execute();
        await db.schema
          .createTable('licences')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('code', 'text', (c) => c.notNull().unique())
          .addColumn('file_text', 'text')
          .addColumn('file_hash', 'text')
          .addColumn('is_trial', 'integer', (c) => c.notNull())
          .addColumn('customer_no', 'text', (c) => c.notNull())
          .addColumn('customer_name', 'text', (c) => c.notNull())
          .addColumn('prd_pkg_category', 'text', (c) => c.notNull())
          .addColumn('is_formal', 'integer', (c) => c.notNull())
          .addColumn('begin_time', 'bigint')
          .addColumn('end_time', 'bigint')
          .addColumn('emp_count', 'integer', (c) => c.notNull())
          .addColumn('is_has_mobile', 'integer', (c) => c.notNull())
          .addColumn('is_permit_openapi', 'integer', (c) => c.notNull())
          .addColumn('is_limit_device', 'integer', (c) => c.notNull())
          .addColumn('infos', 'text', (c) => c.notNull())
          .addColumn('devices', 'text', (c) => c.notNull())
          .addColumn('activate_time', 'bigint')
          .addColumn('state', 'integer', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('licences_created').on('licences').columns(['created_at', 'id']).execute();
        await db.schema
          .createTable('installation')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('customer_no', 'text', (c) => c.notNull())
          .addColumn('system_code', 'text', (c) => c.notNull())
          .addColumn('latest_seen', 'bigint', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
      },
    },
    '0010_session_password_change': {
      async up(db: Kysely<unknown>) {
        // A session signed in with a password that must be changed (spec §4, forced cases) may make only the
        // calls of the password-change rule (src/http/route-rules.ts). Fixed at sign-in: every change of the
        // password ends the user's sessions.
        await db.schema.alterTable('sessions').addColumn('password_change_required', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      },
    },
    '0011_fair_lockout': {
      async up(db: Kysely<unknown>) {
        // Failures are counted per account and address (scope 'pair') before they lock an account for every
        // address, which needs failures from several addresses: the account row remembers them.
        await db.schema.alterTable('login_failures').addColumn('addresses', 'text').execute();
        // address rows of 0001 locked everyone behind a NAT; an address is now only throttled: start afresh
        await sql`DELETE FROM login_failures`.execute(db);
      },
    },
    '0012_installation_seed': {
      async up(db: Kysely<unknown>) {
        // The repository's test licence keys are trusted only on an installation seeded with the demo, whatever
        // NODE_ENV says later. A data folder from before this column is taken as the demo when it holds the
        // demo's system administrator (the production seed makes 'admin').
        await db.schema.alterTable('installation').addColumn('seed', 'text').execute();
        await sql`UPDATE installation SET seed = 'demo' WHERE EXISTS (SELECT 1 FROM users WHERE tenant_code = '1001' AND account = 'sysadmin')`.execute(db);
      },
    },
    '0013_one_version_per_program': {
      async up(db: Kysely<unknown>) {
        // One row per program, updated in place (0007 kept one per address and program, without bound). The
        // rows are reports that come again at every sign-in, so the table starts afresh.
        await db.schema.dropTable('program_versions').execute();
        await db.schema
          .createTable('program_versions')
          .addColumn('service_name', 'text', (c) => c.primaryKey())
          .addColumn('address', 'text', (c) => c.notNull())
          .addColumn('version', 'text', (c) => c.notNull())
          .addColumn('reported_at', 'bigint', (c) => c.notNull())
          .execute();
      },
    },
    '0014_gate_cards': {
      async up(db: Kysely<unknown>) {
        // Gate deployments (issue 13): the set-up state, two-phase card writes, master-card tokens, trusted
        // card issuers, the system key cards and the administrator login cards; sessions remember their card.
        await db.schema
          .createTable('gate_installation')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('customer_no', 'text', (c) => c.notNull())
          .addColumn('mother_fixed_no', 'text', (c) => c.notNull())
          .addColumn('sys_key_code', 'text', (c) => c.notNull())
          .addColumn('mother_proof_hash', 'text', (c) => c.notNull())
          .addColumn('kid', 'text', (c) => c.notNull())
          .addColumn('sealed_system_key', 'text', (c) => c.notNull())
          .addColumn('customer_sealed_key', 'text', (c) => c.notNull())
          .addColumn('mother_card_salt', 'text', (c) => c.notNull())
          .addColumn('initialised_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('prepared_card_writes')
          .addColumn('id_hash', 'text', (c) => c.primaryKey())
          .addColumn('purpose', 'text', (c) => c.notNull())
          .addColumn('fixed_no', 'text', (c) => c.notNull())
          .addColumn('image_hash', 'text', (c) => c.notNull())
          .addColumn('payload', 'text', (c) => c.notNull())
          .addColumn('expires_at', 'bigint', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('master_card_tokens')
          .addColumn('token_hash', 'text', (c) => c.primaryKey())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('expires_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('trusted_card_issuers')
          .addColumn('public_key', 'text', (c) => c.primaryKey())
          .addColumn('trusted_by', 'text', (c) => c.notNull())
          .addColumn('trusted_at', 'bigint', (c) => c.notNull())
          .addColumn('last_used_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('system_key_cards')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('kind_num', 'integer', (c) => c.notNull())
          .addColumn('fixed_no', 'text', (c) => c.notNull().unique())
          .addColumn('state', 'integer', (c) => c.notNull())
          .addColumn('issue_seq', 'integer', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('admin_login_cards')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('tenant_code', 'text', (c) => c.notNull())
          .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
          .addColumn('oprt_no', 'text', (c) => c.notNull())
          .addColumn('kind_num', 'integer', (c) => c.notNull())
          .addColumn('fixed_no', 'text', (c) => c.notNull().unique())
          .addColumn('card_num', 'integer', (c) => c.notNull())
          .addColumn('state', 'integer', (c) => c.notNull())
          .addColumn('issue_seq', 'integer', (c) => c.notNull())
          .addColumn('pwd_hash', 'text', (c) => c.notNull())
          .addColumn('is_super_admin', 'integer', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('admin_login_cards_user').on('admin_login_cards').column('user_id').execute();
        await db.schema.alterTable('sessions').addColumn('card_id', 'text').execute();
      },
    },
    // card management's Search (bench: 100,000 cards) and its one-card-in-use rules: pages by tenant, newest first, filtered by state, kind or
    // operator; likeSearch looks in one lower-case column (fixed number, login name, card number), which
    // PostgreSQL indexes by trigrams when pg_trgm can be created (without it the search still works, unindexed)
    '0015_card_search': {
      async up(db) {
        await db.schema.alterTable('admin_login_cards').addColumn('search_text', 'text', (c) => c.notNull().defaultTo('')).execute();
        await sql`update admin_login_cards set search_text = lower(fixed_no) || ' ' || lower(oprt_no) || ' ' || cast(card_num as text)`.execute(db);
        await db.schema.createIndex('admin_login_cards_tenant_created').on('admin_login_cards').columns(['tenant_code', 'created_at', 'id']).execute();
        await db.schema.createIndex('admin_login_cards_tenant_state').on('admin_login_cards').columns(['tenant_code', 'state', 'created_at']).execute();
        await db.schema.createIndex('admin_login_cards_tenant_kind').on('admin_login_cards').columns(['tenant_code', 'kind_num', 'state']).execute();
        await db.schema.createIndex('admin_login_cards_tenant_num').on('admin_login_cards').columns(['tenant_code', 'card_num']).execute();
        await db.schema.createIndex('admin_login_cards_tenant_user').on('admin_login_cards').columns(['tenant_code', 'user_id', 'created_at']).execute();
        // one card in use per administrator, and one system key card in use: kept by the database, so two
        // administrators confirming at once cannot both succeed (the repositories answer 'card already exists')
        await db.schema.createIndex('admin_login_cards_one_in_use').on('admin_login_cards').column('user_id').unique().where(sql.ref('state'), '=', 20).execute();
        await db.schema.createIndex('system_key_cards_one_in_use').on('system_key_cards').column('state').unique().where(sql.ref('state'), '=', 20).execute();
        await db.schema.createIndex('system_key_cards_created').on('system_key_cards').columns(['created_at', 'id']).execute();
        await db.schema.createIndex('system_key_cards_state').on('system_key_cards').columns(['state', 'created_at']).execute();
        if (dialect === 'sqlite') {
          // SQLite has no index for LIKE '%…%': a covering index lets a text search read the tenant's short search
          // texts instead of whole rows
          await db.schema.createIndex('admin_login_cards_tenant_search').on('admin_login_cards').columns(['tenant_code', 'search_text', 'id']).execute();
        }
        if (dialect === 'postgres') {
          await sql`savepoint card_search_trgm`.execute(db);
          try {
            await sql`create extension if not exists pg_trgm`.execute(db);
            await sql`create index admin_login_cards_search_trgm on admin_login_cards using gin (search_text gin_trgm_ops)`.execute(db);
            await sql`release savepoint card_search_trgm`.execute(db);
          } catch (error) {
            await sql`rollback to savepoint card_search_trgm`.execute(db);
            process.emitWarning(`pg_trgm is not available (${error instanceof Error ? error.message : String(error)}): card searches by text run unindexed`);
          }
        }
      },
    },
    // sub-systems of other teams registered by an operator (SubApp/Register, `npm run subapp`): their system and
    // pages live in the menu tables like the built-in ones; this row says where the sub-app is loaded from
    '0016_sub_app_registrations': {
      async up(db) {
        await db.schema
          .createTable('sub_app_registrations')
          .addColumn('app_no', 'text', (c) => c.primaryKey())
          .addColumn('entry', 'text', (c) => c.notNull())
          .addColumn('script_origins', 'text', (c) => c.notNull())
          .addColumn('function_codes', 'text', (c) => c.notNull())
          .addColumn('registered_at', 'bigint', (c) => c.notNull())
          .addColumn('registered_by', 'text', (c) => c.notNull())
          .execute();
      },
    },
    // what signed-in calls read with their session instead of the licences, grants and menus (db/change-stamps.ts)
    '0017_change_stamps': {
      async up(db) {
        await createChangeStamps(db, dialect);
      },
    },
    // a recycled card issued again gets a row of its own: the table keeps its history and the real time of each issue
    '0018_card_issue_history': {
      async up(db) {
        await keepCardIssueHistory(db, dialect);
      },
    },
    // a master-card token names the card issuer that read the mother card: it may trust only that issuer with the
    // system key (docs/cards.md "What each card can do"); a token made before has none and trusts no issuer
    '0019_master_token_issuer': {
      async up(db) {
        await db.schema.alterTable('master_card_tokens').addColumn('device_public_key', 'text').execute();
      },
    },
    // the registry of trusted card issuers (issue 46 item 1): a trust expires and can be revoked, a key fetch answers
    // a one-time challenge; the trusts made before have no end and are taken as expired (renewed at the next swipe)
    '0020_trusted_issuer_registry': {
      async up(db) {
        await addTrustedIssuerRegistry(db);
      },
    },
    // what the whole installation serves (sub-app registrations, licences) is changed over HTTP only by an account the
    // operator marks (docs/installation-and-tenants.md); the installation's first administrator, who could do it
    // before, keeps it: the oldest enabled system administrator of the default tenant
    '0021_installation_admin': {
      async up(db) {
        await db.schema.alterTable('users').addColumn('is_installation_admin', 'integer', (c) => c.notNull().defaultTo(0)).execute();
        const first = await sql<{ id: string }>`
          select u.id from users u
          where u.tenant_code = (select min(code) from tenants) and u.is_system_admin = 1 and u.is_disabled = 0
          order by u.created_at, u.id limit 1`.execute(db);
        const id = first.rows[0]?.id;
        if (id !== undefined) await sql`update users set is_installation_admin = 1 where id = ${id}`.execute(db);
      },
    },
    // which K_cust sealed the installation's customer-sealed key (docs/cards.md "Keys"): the installations of before
    // are PBKDF2-HMAC-SM3's, resealed under argon2id the next time the server sees the right customer password
    '0022_customer_password_guard': {
      async up(db) {
        await db.schema.alterTable('gate_installation').addColumn('customer_key_derivation', 'text', (c) => c.notNull().defaultTo('pbkdf2-sm3')).execute();
      },
    },
    // how the tenant's administrators sign in with their card (issue 46): the card and its card password unless
    // the tenant's system administrator allows the card alone (a copy of a card's bytes then signs in)
    '0023_card_login_setting': {
      async up(db) {
        await db.schema.alterTable('tenants').addColumn('card_login', 'text', (c) => c.notNull().defaultTo('card-and-password')).execute();
      },
    },
    // external sign-in through a tenant's identity providers (issue 49, docs/sso.md)
    '0024_identity_providers': {
      async up(db) {
        await db.schema
          .createTable('identity_providers')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('tenant_code', 'text', (c) => c.notNull())
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('name_i18n', 'text', (c) => c.notNull())
          .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('settings', 'text', (c) => c.notNull())
          .addColumn('client_secret_sealed', 'text')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('identity_providers_tenant').on('identity_providers').column('tenant_code').execute();
        await db.schema
          .createTable('sso_round_trips')
          .addColumn('state_hash', 'text', (c) => c.primaryKey())
          .addColumn('provider_id', 'text', (c) => c.notNull())
          .addColumn('tenant_code', 'text', (c) => c.notNull())
          .addColumn('nonce', 'text', (c) => c.notNull())
          .addColumn('code_verifier', 'text', (c) => c.notNull())
          .addColumn('from_path', 'text', (c) => c.notNull())
          .addColumn('lang', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('expires_at', 'bigint', (c) => c.notNull())
          .addColumn('used_at', 'bigint')
          .execute();
        await db.schema
          .createTable('sso_login_tickets')
          .addColumn('ticket_hash', 'text', (c) => c.primaryKey())
          .addColumn('provider_id', 'text', (c) => c.notNull())
          .addColumn('tenant_code', 'text', (c) => c.notNull())
          .addColumn('user_id', 'text', (c) => c.notNull())
          .addColumn('provider_subject', 'text', (c) => c.notNull())
          .addColumn('provider_session', 'text')
          .addColumn('id_token_sealed', 'text')
          .addColumn('from_path', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('expires_at', 'bigint', (c) => c.notNull())
          .addColumn('used_at', 'bigint')
          .execute();
        await db.schema
          .createTable('sso_sessions')
          .addColumn('token_hash', 'text', (c) => c.primaryKey())
          .addColumn('provider_id', 'text', (c) => c.notNull())
          .addColumn('provider_subject', 'text', (c) => c.notNull())
          .addColumn('provider_session', 'text')
          .addColumn('id_token_sealed', 'text')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('sso_sessions_provider_session').on('sso_sessions').columns(['provider_id', 'provider_session']).execute();
        await db.schema.createIndex('sso_sessions_provider_subject').on('sso_sessions').columns(['provider_id', 'provider_subject']).execute();
      },
    },
  };
}

export async function migrateToLatest(db: Kysely<DB>, dialect: Dialect): Promise<void> {
  await migrate(db, dialect, (migrator) => migrator.migrateToLatest());
}

/** Applies the migrations up to `name` only (a test of a migration starts from the data of the ones before it). */
export async function migrateUpTo(db: Kysely<DB>, dialect: Dialect, name: string): Promise<void> {
  await migrate(db, dialect, (migrator) => migrator.migrateTo(name));
}

/** The names of the migrations this release knows that the database has not applied yet, in the order they would run. */
export async function pendingMigrations(db: Kysely<DB>, dialect: Dialect): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations(dialect) } });
  const known = await migrator.getMigrations();
  return known.filter((m) => m.executedAt === undefined).map((m) => m.name);
}

/** The newest migration the database has applied ('' for a new database): the schema a backup was taken at. */
export async function appliedSchema(db: Kysely<DB>): Promise<string> {
  // only a missing table means a new database: a database that does not answer is an error, not an empty one
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((table) => table.name === 'kysely_migration')) return '';
  const rows = await sql<{ name: string }>`select name from kysely_migration order by name desc limit 1`.execute(db);
  return rows.rows[0]?.name ?? '';
}

/** The names of every migration this release knows, in order. */
export function knownMigrations(dialect: Dialect): string[] {
  return Object.keys(migrations(dialect)).sort();
}

/** Applies every pending migration; `onApplied` hears each one's name as it is done. */
export async function migrateToLatestNamed(db: Kysely<DB>, dialect: Dialect, onApplied: (name: string) => void): Promise<string[]> {
  const applied: string[] = [];
  await migrate(db, dialect, async (migrator) => {
    const outcome = await migrator.migrateToLatest();
    for (const result of outcome.results ?? []) {
      if (result.status === 'Success') {
        applied.push(result.migrationName);
        onApplied(result.migrationName);
      }
    }
    return outcome;
  });
  return applied;
}

async function migrate(db: Kysely<DB>, dialect: Dialect, run: (migrator: Migrator) => ReturnType<Migrator['migrateToLatest']>): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(dialect) };
  const migrator = new Migrator({ db, provider });
  const { error, results } = await run(migrator);
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}
