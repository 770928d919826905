import { GateScreenFrame } from '../../lib/gate-screen-frame.tsx';
import { CardTableScreen } from './card-table-screen.tsx';
import { cardTableKinds } from './card-table-kinds.ts';
import type { CardTableKind } from './card-table-kinds.ts';
import { FinishButton } from '../../lib/cards/finish-button.tsx';
import { TrustedIssuersTable } from './trusted-issuers-table.tsx';

/**
 * /systemadmin-logincard (administrator login cards) and /system-keycard (system key cards): the card management
 * tables of gate deployments, for a swiped mother card or a signed-in system administrator. The frame keeps the
 * entry checks and the links back to the choice of sign-in and to the login page.
 */
export default function CardManagementPage({ kind }: { kind: CardTableKind }) {
  return (
    <GateScreenFrame screen={kind} titleKey={cardTableKinds[kind].titleKey} wide>
      {(state) => (
        <>
          <CardTableScreen kind={kind} state={state} />
          {kind === 'keyCards' ? <TrustedIssuersTable /> : null}
          <div className="campus-card-management__finish">
            <FinishButton />
          </div>
        </>
      )}
    </GateScreenFrame>
  );
}
