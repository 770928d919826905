import { Type } from 'typebox';
import type { IncomingMessage } from 'node:http';
import type { TSchema } from 'typebox';
import type { FastifyInstance, FastifyRequest, RawServerDefault, RouteGenericInterface } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { blankImage, classifyCard, readHeader, readMotherCard, trimImage } from '@campus/card-crypto';
import type { CardType } from '@campus/card-crypto';
import { apiPaths, cardDeviceTokenHeader, cardIssuerPaths, isSuccessCode, managementCardKind, readerCodes, shellVersion } from '@campus/contracts';
import type { CanClearReply, CanIssueReply, CardReadReply, Envelope, MasterCardReadReply, NewDeviceKeyReply, PairReply, SignedKeyChallenge } from '@campus/contracts';
import { ok } from '../http/envelope.ts';
import { RelayedFailure } from '../http/relayed-failure.ts';
import type { CardOnReader, CardReader } from '../readers/card-reader.ts';
import { ReaderError } from '../readers/card-reader.ts';
import type { IssuerSession } from '../card-checks.ts';
import { holdsImage, openOurAdminCard, openOurKeyCard, requireBlank, requireFixedNo, requireImageType } from '../card-checks.ts';
import type { DeviceIdentity } from '../device-identity.ts';
import type { Pairings } from '../pairings.ts';
import type { ReaderLock } from '../reader-lock.ts';

const CardKind = Type.Literal(managementCardKind, { description: `Card kind: ${managementCardKind}, the administrator login and system key card kind (spec §9)` });
const FixedNo = Type.String({ pattern: '^[0-9A-Fa-f]{8,20}$', description: "The card's fixed number (UID), 8 to 20 hex digits" });
const Image = Type.String({ pattern: '^([0-9a-fA-F]{2}){1,256}$', description: 'A card image built by the server, hex, at most 256 bytes' });
const Token = Type.String({ minLength: 16, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description: 'cardDeviceToken of the browser session' });

export interface CardRouteDeps {
  reader: CardReader;
  session: IssuerSession;
  identity: DeviceIdentity;
  pairings: Pairings;
  lock: ReaderLock;
  allowedOrigins: readonly string[];
  readerName: string;
  /** fetch, replaceable in tests. */
  fetch: typeof fetch;
}

/** The body of a call with the schema `B`, as the TypeBox type provider types it. */
type BodyOf<B extends TSchema> = FastifyRequest<RouteGenericInterface, RawServerDefault, IncomingMessage, { body: B }, TypeBoxTypeProvider>['body'];

const hex = (bytes: Buffer) => bytes.toString('hex');

/** Whether the server's answer to a relayed sign-in is an envelope (a proxy's error page is not). */
function isEnvelope(value: unknown): value is Envelope {
  return typeof value === 'object' && value !== null && 'code' in value && typeof value.code === 'number';
}

/** What every read reports of a card: its number, what it is, its bytes (without the padding) and header. */
function describe(card: CardOnReader): CardReadReply {
  const h = readHeader(card.image);
  const used = trimImage(card.image);
  return {
    fixedNo: card.fixedNo,
    cardClass: classifyCard(card.image),
    cardKind: h?.kind ?? 0,
    customerNo: h?.customerNo ?? '',
    kid: h ? hex(h.kid) : '',
    issueSeq: h?.issueSeq ?? 0,
    image: hex(used),
  };
}

export function registerCardRoutes(untyped: FastifyInstance, deps: CardRouteDeps): void {
  // the bodies typed by their schemas
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const { reader, session, identity, pairings, lock } = deps;

  /** A POST card call: a paired browser session, one operation at a time, the envelope around `work`. */
  function card<B extends TSchema>(url: string, summary: string, body: B, work: (body: BodyOf<B>, request: FastifyRequest) => Promise<unknown>) {
    app.post(
      url,
      {
        schema: { tags: ['card'], summary, body, headers: Type.Object({ [cardDeviceTokenHeader]: Type.Optional(Type.String({ maxLength: 64 })) }) },
        // before the body is read: a caller that is not paired learns nothing about the call
        onRequest: async (request) => {
          const token = request.headers[cardDeviceTokenHeader];
          if (!pairings.has(typeof token === 'string' ? token : undefined)) throw new ReaderError(readerCodes.notPaired);
        },
      },
      async (request): Promise<Envelope> => ok(request, await lock.run(() => work(request.body, request))),
    );
  }

  // ---- pairing (no card call before it) ----

  app.post(
    cardIssuerPaths.addIdentity,
    {
      schema: {
        tags: ['device'],
        summary: "Pairs a browser session (its cardDeviceToken) with this issuer and answers the issuer's device key and version; 990212 while the 8 pairings of its origin are all in use",
        body: Type.Object({ cardDeviceToken: Token }),
      },
    },
    async (request) => {
      const { cardDeviceToken } = request.body;
      if (!pairings.add(cardDeviceToken, request.headers.origin ?? '')) throw new ReaderError(readerCodes.tooManyPairings);
      // the version of the build this issuer came from: the shell tells an issuer older than its server apart by it
      const reply: PairReply = { deviceId: identity.deviceId, devicePublicKey: identity.publicKey, readerName: deps.readerName, issuerVersion: shellVersion };
      return ok(request, reply);
    },
  );

  app.post(
    cardIssuerPaths.switchIdentity,
    { schema: { tags: ['device'], summary: 'Makes a paired browser session the one operating the reader', body: Type.Object({ cardDeviceToken: Token }) } },
    async (request) => {
      const { cardDeviceToken } = request.body;
      if (!pairings.switchTo(cardDeviceToken)) throw new ReaderError(readerCodes.notPaired);
      return ok(request, { deviceId: identity.deviceId });
    },
  );

  // ---- the device key: proving it to the server, replacing a revoked one ----

  card(
    cardIssuerPaths.signKeyChallenge,
    "Signs the server's one-time key challenge (GetSysKeyChallenge) and this PC's name with the device key: the server seals the system key only for it",
    Type.Object({ challenge: Type.String({ pattern: '^[A-Za-z0-9_-]{43}$' }) }),
    async (body): Promise<SignedKeyChallenge> => ({ challenge: body.challenge, ...identity.signChallenge(body.challenge) }),
  );

  card(cardIssuerPaths.newDeviceKey, 'Replaces the device key pair with a new one (a system administrator revoked the old one); the system key held is dropped', Type.Object({}), async (): Promise<NewDeviceKeyReply> => {
    identity.renew();
    session.systemKey = null;
    return { deviceId: identity.deviceId, devicePublicKey: identity.publicKey };
  });

  // ---- the system key and the gateway ----

  card(cardIssuerPaths.init, 'Loads the system key data the server sealed to this issuer (kept in memory only)', Type.Object({ sysKeyData: Type.String({ pattern: '^[0-9a-fA-F]{100,400}$' }) }), async (body) => {
    const key = identity.openSystemKey(body.sysKeyData);
    if (!key) throw new ReaderError(readerCodes.noSystemKey);
    session.systemKey = key;
    return { loaded: true };
  });

  card(cardIssuerPaths.setGateway, 'Sets the server card sign-ins are relayed to; fails (990207) while no system key is loaded', Type.Object({ gatewayAddr: Type.String({ maxLength: 200 }) }), async (body) => {
    let origin: string;
    try {
      origin = new URL(body.gatewayAddr).origin;
    } catch {
      origin = '';
    }
    if (!deps.allowedOrigins.includes(origin)) throw new ReaderError(readerCodes.gatewayUnreachable);
    session.requireKey();
    session.gateway = origin;
    return { gatewayAddr: origin };
  });

  // ---- reading ----

  card(cardIssuerPaths.readMasterCard, 'Reads the mother card: customer number, system key code and its proof (customerPwd)', Type.Object({}), async (): Promise<MasterCardReadReply> => {
    const found = await reader.read();
    const kind = classifyCard(found.image);
    if (kind !== 'mother') throw new ReaderError(kind === 'unknown' ? readerCodes.unknownCard : readerCodes.wrongCardKind);
    const mother = readMotherCard(found.image);
    return { ...describe(found), customerNo: mother.customerNo, sysKeyCode: mother.sysKeyCode, customerPwd: mother.proof, initialised: mother.initialised };
  });

  const readCard = async (): Promise<CardReadReply> => {
    const found = await reader.read();
    const described = describe(found);
    if (described.cardClass !== 'adminLogin' || !session.systemKey) return described;
    try {
      const fields = openOurAdminCard(found, session);
      return { ...described, oprtNo: fields.oprtNo, cardNum: fields.cardNum, tenantCode: fields.tenantCode };
    } catch {
      return described; // not one of this installation's: the server says why
    }
  };
  card(cardIssuerPaths.readOprtLoginCard, 'Reads the card on the reader (an administrator card of this installation opened)', Type.Object({}), readCard);
  card(cardIssuerPaths.readBaseInfo, 'Reads the card on the reader', Type.Object({}), readCard);

  card(cardIssuerPaths.checkIsSystemKeyCard, 'Whether the card on the reader is a system key card', Type.Object({ cardKind: CardKind }), async () => {
    const found = await reader.read();
    return { fixedNo: found.fixedNo, isSystemKeyCard: classifyCard(found.image) === 'systemKey' };
  });

  card(cardIssuerPaths.recoverySystemKey, 'Reads a system key card for recovery (the server opens it with the customer password)', Type.Object({ cardKind: CardKind, cardFixedNo: FixedNo }), async (body) => {
    const found = await reader.read();
    requireFixedNo(found, body.cardFixedNo);
    if (classifyCard(found.image) !== 'systemKey') throw new ReaderError(readerCodes.wrongCardKind);
    return describe(found);
  });

  /**
   * Writes `image` onto the card on the reader, which must be the card numbered `fixedNo`. A card that holds the image
   * already is left as it is (the call sent again after its reply was lost); any other card is written once `accept`
   * takes it as it is (its checks throw the reader code that says why not).
   */
  const writeIfNotWritten = async (fixedNo: string, image: Buffer, accept: (found: CardOnReader) => void) => {
    const found = await reader.read();
    requireFixedNo(found, fixedNo);
    if (holdsImage(found, image)) return { fixedNo: found.fixedNo };
    accept(found);
    await reader.write(found.fixedNo, image);
    return { fixedNo: found.fixedNo };
  };

  // ---- issuing: a blank card, then the server's image onto that very card ----

  const checkCanIssue = async (): Promise<CanIssueReply> => {
    const found = await reader.read();
    requireBlank(found, session);
    return { fixedNo: found.fixedNo, canIssue: true };
  };
  card(cardIssuerPaths.checkOprtLoginCardCanIssue, 'Checks that the card on the reader is blank', Type.Object({ cardKind: CardKind }), checkCanIssue);
  card(cardIssuerPaths.checkSystemKeyCardCanIssue, 'Checks that the card on the reader is blank', Type.Object({ cardKind: CardKind }), checkCanIssue);

  const issue = (type: CardType) => async (body: { fixedNo: string; image: string }) => {
    const image = Buffer.from(body.image, 'hex');
    requireImageType(image, type);
    return writeIfNotWritten(body.fixedNo, image, (found) => requireBlank(found, session));
  };
  const IssueBody = Type.Object({ fixedNo: FixedNo, image: Image });
  card(cardIssuerPaths.issueSuperAdminCard, 'Writes the super administrator card the server prepared onto the blank card', IssueBody, issue('adminLogin'));
  card(cardIssuerPaths.issueOprtLoginCard, 'Writes an administrator login card the server prepared onto the blank card', IssueBody, issue('adminLogin'));
  card(cardIssuerPaths.issueSystemKeyCard, 'Writes the system key card the server prepared onto the blank card', IssueBody, issue('systemKey'));

  card(
    cardIssuerPaths.writeCard,
    'Writes a server-built image onto the card on the reader, all or nothing, when the card is as expected',
    Type.Object({ fixedNo: FixedNo, image: Image, expect: Type.Union([Type.Literal('blank'), Type.Literal('mother'), Type.Literal('ours')]) }),
    async (body) => {
      const image = Buffer.from(body.image, 'hex');
      return writeIfNotWritten(body.fixedNo, image, (found) => {
        const kind = classifyCard(found.image);
        if (body.expect === 'blank') requireBlank(found, session);
        else if (body.expect === 'mother') {
          if (kind !== 'mother') throw new ReaderError(readerCodes.wrongCardKind);
          requireImageType(image, 'mother');
        } else {
          if (kind === 'adminLogin') openOurAdminCard(found, session);
          else if (kind === 'systemKey') openOurKeyCard(found, session);
          else throw new ReaderError(readerCodes.wrongCardKind);
          requireImageType(image, kind);
        }
      });
    },
  );

  // ---- clearing (recycling) ----

  const ClearBody = Type.Object({ cardKind: CardKind, cardFixedNo: FixedNo });
  const requireOurs = (type: 'adminLogin' | 'systemKey', found: CardOnReader) => (type === 'adminLogin' ? openOurAdminCard(found, session) : openOurKeyCard(found, session));
  const checkClear = (type: 'adminLogin' | 'systemKey') => async (body: { cardFixedNo: string }) => {
    const found = await reader.read();
    requireFixedNo(found, body.cardFixedNo);
    requireOurs(type, found);
    return found;
  };
  const clear = (type: 'adminLogin' | 'systemKey') => (body: { cardFixedNo: string }) => writeIfNotWritten(body.cardFixedNo, blankImage(), (found) => requireOurs(type, found));
  card(cardIssuerPaths.checkOprtLoginCardCanClear, 'Checks that the card on the reader is this installation’s administrator card', ClearBody, async (body): Promise<CanClearReply> => ({ fixedNo: (await checkClear('adminLogin')(body)).fixedNo, canClear: true }));
  card(cardIssuerPaths.checkSystemKeyCardCanClear, 'Checks that the card on the reader is this installation’s system key card', ClearBody, async (body): Promise<CanClearReply> => ({ fixedNo: (await checkClear('systemKey')(body)).fixedNo, canClear: true }));
  card(cardIssuerPaths.clearOprtLoginCard, 'Blanks this installation’s administrator card on the reader', ClearBody, clear('adminLogin'));
  card(cardIssuerPaths.clearSystemKeyCard, 'Blanks this installation’s system key card on the reader', ClearBody, clear('systemKey'));

  // ---- the administrator's card password and sign-in ----

  card(cardIssuerPaths.checkOprtLoginCardCanChangePwd, 'Checks that the card on the reader is the administrator card of this operator', Type.Object({ cardKind: CardKind, oprtNo: Type.String({ minLength: 1, maxLength: 32 }) }), async (body) => {
    const found = await reader.read();
    const fields = openOurAdminCard(found, session);
    if (fields.oprtNo !== body.oprtNo) throw new ReaderError(readerCodes.wrongCardKind);
    return { fixedNo: found.fixedNo, canChangePwd: true, issueSeq: fields.header.issueSeq };
  });

  card(cardIssuerPaths.changePwdOprtLoginCard, 'Rewrites the administrator card with the image the server prepared', IssueBody, async (body) => {
    const image = Buffer.from(body.image, 'hex');
    requireImageType(image, 'adminLogin');
    return writeIfNotWritten(body.fixedNo, image, (found) => openOurAdminCard(found, session));
  });

  card(
    cardIssuerPaths.login,
    'Reads the administrator card and relays it to the server (card sign-in); answers the server’s token or failure',
    Type.Object({
      cardKind: CardKind,
      oprtNo: Type.Optional(Type.String({ maxLength: 32 })),
      oprtPwd: Type.Optional(Type.String({ pattern: '^[0-9a-f]{64}$' })),
      tenantCode: Type.Optional(Type.String({ minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9_-]*$', description: 'The tenant chosen when the login name is in several tenants' })),
    }),
    async (body, request) => {
      const found = await reader.read();
      const fields = openOurAdminCard(found, session);
      if (body.oprtNo !== undefined && body.oprtNo !== '' && body.oprtNo !== fields.oprtNo) throw new ReaderError(readerCodes.wrongCardKind);
      if (!session.gateway) throw new ReaderError(readerCodes.noSystemKey);
      let reply: Response;
      try {
        reply = await deps.fetch(`${session.gateway}${apiPaths.cardLogin}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', language: String(request.headers.language ?? 'zh-CN') },
          body: JSON.stringify({ cardKind: body.cardKind, fixedNo: found.fixedNo, image: describe(found).image, oprtNo: fields.oprtNo, oprtPwd: body.oprtPwd, tenantCode: body.tenantCode }),
          signal: AbortSignal.timeout(15_000),
        });
      } catch {
        throw new ReaderError(readerCodes.gatewayUnreachable);
      }
      const envelope: unknown = await reply.json().catch(() => null);
      if (!isEnvelope(envelope)) throw new ReaderError(readerCodes.gatewayUnreachable);
      if (!isSuccessCode(envelope.code)) throw new RelayedFailure(envelope);
      return envelope.data;
    },
  );
}
