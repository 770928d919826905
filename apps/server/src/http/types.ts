import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifySchema, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { LanguageCode, LoginType } from '@campus/contracts';
import type { ChangeStamps } from '../db/change-stamps.ts';
import type { StorageWatch } from '../lib/storage-watch.ts';

/** The Fastify instance with the TypeBox type provider, as route modules receive it. */
export type App = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

/** A route as registered: its method (HEAD left out), URL pattern and schema as given (JSON Schema). */
export interface RegisteredRoute {
  method: string;
  url: string;
  schema: FastifySchema | undefined;
}

/** The installation's identity and clock as a signed-in call reads them (null before the row exists). */
export interface InstallationSnapshot {
  customerNo: string;
  latestSeen: number;
}

/** The signed-in caller, attached to the request by the auth hook. */
export interface SessionInfo {
  tokenHash: string;
  userId: string;
  tenantCode: string;
  account: string;
  loginType: LoginType;
  createdAt: number;
  /** The password must be changed first (spec §4 forced cases): only the password-change rule's calls are answered. */
  passwordChangeRequired: boolean;
  /** The administrator login card of a card sign-in (login type 3), else null. */
  cardId: string | null;
  /** The change stamps read with the session (db/change-stamps.ts); null when they cannot be read. */
  stamps: ChangeStamps | null;
  /** The installation's identity and clock read with the session; null before its row exists. */
  installation: InstallationSnapshot | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every registered route (method, URL pattern, schema), HEAD left out. */
    routeList: readonly RegisteredRoute[];
    /** The data folder's storage state (lib/storage-watch.ts): storage-full errors mark it, /readyz reads it. */
    storageWatch: StorageWatch;
  }
  interface FastifyRequest {
    /** Language of the `language` header (zh-CN when absent or unknown). */
    lang: LanguageCode;
    session: SessionInfo | null;
  }
}

/** The current time in epoch ms; tests pass a fake clock. */
export type Clock = () => number;
