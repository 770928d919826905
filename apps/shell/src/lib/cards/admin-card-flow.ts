import type { AdminCardIssueRequest, CanIssueReply, PreparedCardWrite, SuperAdminIssueRequest } from '@campus/contracts';
import { cardIssuerPaths, managementCardKind } from '@campus/contracts';
import { issuerCall, pairIssuer } from './card-issuer.ts';
import { readerStep, serverStep } from './card-flow.ts';
import type { FlowContext } from './card-flow.ts';
import { passwordDigest } from '../crypto.ts';
import { sealPassword } from '../password-seal.ts';
import { writeConfirm, writePrepared } from './prepared-card-write.ts';
import type { RequestOptions } from '../request.ts';

/** Where an administrator login card is issued: the set-up's super administrator card, or card management's. */
export interface AdminCardIssuePaths {
  /** Phase one: the server builds the card's image for the blank card. */
  prepare: string;
  /** The issuer's call that writes the prepared image onto the blank card. */
  write: string;
  /** Phase two: the confirm of the write. */
  confirm: string;
}

export interface AdminCardIssueInput {
  paths: AdminCardIssuePaths;
  /** The token the server calls send: the master-card token of the set-up, or card management's. */
  options: RequestOptions;
  password: string;
  /** The installation's seal key (PasswordComplexity.sealKey): the server checks the password policy itself. */
  sealKey: string;
  /** What the prepare takes besides the card and its password (card management: the holder, oprtId). */
  holder?: Pick<AdminCardIssueRequest, 'oprtId'>;
}

/**
 * A new administrator login card onto the blank card on the reader, with its card password (two-phase, docs/cards.md):
 * the blank card checked, the image prepared by the server, written, confirmed. One flow for the super administrator's
 * card of the set-up and card management's issue.
 */
export async function issueAdminCard(ctx: FlowContext, input: AdminCardIssueInput): Promise<void> {
  const { paths, options } = input;
  await readerStep(ctx, 'connecting', pairIssuer);
  const blank = await readerStep(ctx, 'checking', () => issuerCall<CanIssueReply>(cardIssuerPaths.checkOprtLoginCardCanIssue, { cardKind: managementCardKind }));
  const body = { ...input.holder, fixedNo: blank.fixedNo, oprtPwd: await passwordDigest(input.password, 'sm3'), sealedPwd: await sealPassword(input.password, input.sealKey) } satisfies SuperAdminIssueRequest;
  const prepared = await serverStep<PreparedCardWrite>(ctx, 'preparing', paths.prepare, body, options);
  const write = () => issuerCall(paths.write, { fixedNo: prepared.fixedNo, image: prepared.image });
  await writePrepared(ctx, prepared, write, writeConfirm(prepared, paths.confirm, options));
}
