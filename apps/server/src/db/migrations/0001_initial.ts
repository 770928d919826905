import { sql } from 'kysely';
import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../database.ts';

export function migration(dialect: Dialect): Migration {
  const blob = dialect === 'postgres' ? sql`bytea` : sql`blob`;
  return {
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
  };
}
