import { useState } from 'react';
import { message } from 'antd';
import { useTranslation } from '../../lib/use-translation.ts';
import { RequestError } from '../../lib/request.ts';

/**
 * A licence dialog's one call after which the user signs in again (activation, trial): sends it once at a
 * time; on success tells the user (`succeededKey`) and runs `onDone` (the caller signs out). A refused call's
 * text is already shown by the request layer; a network or HTTP failure is `failure` (`failedKey`).
 */
export function useFinalSubmit({ failedKey, succeededKey, onDone }: { failedKey: string; succeededKey: string; onDone: () => Promise<void> }) {
  const { t } = useTranslation();
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const submit = async (call: () => Promise<unknown>) => {
    if (sending) return;
    setSending(true);
    setFailure(null);
    try {
      await call();
    } catch (error) {
      setSending(false);
      if (!(error instanceof RequestError) || error.code === null) setFailure(t(failedKey));
      return;
    }
    // static message: it outlives the layout, so it is still shown on /login
    void message.success(t(succeededKey));
    await onDone();
  };
  const reset = () => {
    setFailure(null);
    setSending(false);
  };
  return { sending, failure, submit, reset };
}
