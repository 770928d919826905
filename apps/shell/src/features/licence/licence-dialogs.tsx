import { closeActivation, closeLicenceUpload, closeTrial, openActivation, useLicenceDialogs } from './licence-dialog-state.ts';
import { LicenceUploadModal } from './licence-upload-modal.tsx';
import { ActivationModal } from './activation-modal.tsx';
import { TrialModal } from './trial-modal.tsx';
import { useSignOut } from '../../lib/use-sign-out.ts';

/** The licence dialogs (upload, activation, trial registration), bound to their store (licence-dialog-state). */
export default function LicenceDialogs() {
  const upload = useLicenceDialogs((state) => state.upload);
  const activation = useLicenceDialogs((state) => state.activation);
  const trial = useLicenceDialogs((state) => state.trial);
  const signOut = useSignOut();
  return (
    <>
      <LicenceUploadModal open={upload} onClose={closeLicenceUpload} onActivate={openActivation} />
      <ActivationModal id={activation} onClose={closeActivation} onActivated={signOut} />
      <TrialModal open={trial} onClose={closeTrial} onRegistered={signOut} />
    </>
  );
}
