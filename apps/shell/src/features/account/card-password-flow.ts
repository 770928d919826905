import type { CardWriteConfirm, PreparedCardWrite } from '@campus/contracts';
import { apiPaths, cardIssuerPaths, managementCardKind } from '@campus/contracts';
import { issuerCall, pairIssuer } from '../../lib/cards/card-issuer.ts';
import { readerStep, serverStep } from '../../lib/cards/card-flow.ts';
import type { FlowContext } from '../../lib/cards/card-flow.ts';
import { i18n } from '../../lib/i18n.ts';
import { checkGateway } from '../../lib/cards/issuer-key.ts';
import { apiPostRaw } from '../../lib/request.ts';

export interface CardPasswordChange {
  /** The card the administrator signed in with (user detail cardId) and its operator (user code). */
  cardId: string;
  oprtNo: string;
  oldDigest: string;
  newDigest: string;
  sealedNew: string;
}

/**
 * The card-login password change of spec §4: connect the reader, verify the old password, read the card
 * (990481 every 3 s), write the card with the new image the server prepared, report it (two-phase).
 */
export function cardPasswordFlow(change: CardPasswordChange) {
  return async (ctx: FlowContext): Promise<string> => {
    await readerStep(ctx, 'connecting', pairIssuer);
    await checkGateway(ctx);
    await serverStep(ctx, 'verifying', apiPaths.verifyGmPassword, { oprtPwd: change.oldDigest });
    const card = await readerStep(ctx, 'reading', () => issuerCall<{ fixedNo: string }>(cardIssuerPaths.checkOprtLoginCardCanChangePwd, { cardKind: managementCardKind, oprtNo: change.oprtNo }));
    const prepared = await serverStep<PreparedCardWrite>(ctx, 'preparing', apiPaths.changeGmPassword, {
      id: change.cardId,
      kindNum: 11,
      fixedNo: card.fixedNo,
      oprtPwd: change.newDigest,
      sealedPwd: change.sealedNew,
      oprtOldPwd: change.oldDigest,
    });
    const confirm = (isSuccess: boolean): CardWriteConfirm => ({ prepareId: prepared.prepareId, isSuccess });
    if (!prepared.alreadyWritten) {
      try {
        await readerStep(ctx, 'writing', () => issuerCall(cardIssuerPaths.changePwdOprtLoginCard, { fixedNo: prepared.fixedNo, image: prepared.image }));
      } catch (error) {
        // sent also after Cancel (not through the dialog's signal): the server forgets the prepared write
        await apiPostRaw(apiPaths.changeGmPassword, confirm(false)).catch(() => undefined);
        throw error;
      }
    }
    if (ctx.signal.aborted) {
      // the card holds the new password already: the server must know it, even if the operator cancelled
      await apiPostRaw(apiPaths.changeGmPassword, confirm(true)).catch(() => undefined);
      throw ctx.signal.reason;
    }
    await serverStep(ctx, 'confirming', apiPaths.changeGmPassword, confirm(true));
    return i18n.t('account.cardPasswordChanged');
  };
}
