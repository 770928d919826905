// The Service Control Manager protocol spoken by node.exe itself, through koffi over advapi32.dll: no wrapper
// executable (WinSW and node-windows need .NET, which Wine in the test root does not have, and would be one more
// binary to trust on the operator's PC).
//
// Threads: StartServiceCtrlDispatcherW does not return while the service runs, so it is called with koffi's async
// call, on one of koffi's worker threads. The SCM then calls ServiceMain on a thread of its own and the control
// handler on the dispatcher's thread. koffi queues a JS callback called from another thread to the main thread and
// that thread waits until the callback returned (koffi docs, "Asynchronous callbacks"): so the callbacks only record
// what to do and return at once, the work runs on the event loop, and the main thread never waits for those threads.
// SetServiceStatus may be called from any thread, so the main thread reports the state whenever it changes.
import { serviceStates, stateName } from './service-names.ts';
import type { ServiceStateName } from './service-names.ts';
import { koffi, lastError, win32Errors } from './win32.ts';

const advapi32 = koffi.load('advapi32.dll');

const ServiceStatus = koffi.struct({
  dwServiceType: 'uint32',
  dwCurrentState: 'uint32',
  dwControlsAccepted: 'uint32',
  dwWin32ExitCode: 'uint32',
  dwServiceSpecificExitCode: 'uint32',
  dwCheckPoint: 'uint32',
  dwWaitHint: 'uint32',
});
interface ServiceStatusValue {
  dwServiceType: number;
  dwCurrentState: number;
  dwControlsAccepted: number;
  dwWin32ExitCode: number;
  dwServiceSpecificExitCode: number;
  dwCheckPoint: number;
  dwWaitHint: number;
}

const ServiceMainProc = koffi.proto('__stdcall', 'CampusServiceMain', 'void', ['uint32', 'void *']);
const HandlerExProc = koffi.proto('__stdcall', 'CampusServiceHandlerEx', 'uint32', ['uint32', 'uint32', 'void *', 'void *']);
const ServiceTableEntry = koffi.struct({ lpServiceName: 'str16', lpServiceProc: koffi.pointer(ServiceMainProc) });

const StartServiceCtrlDispatcherW = advapi32.func('__stdcall', 'StartServiceCtrlDispatcherW', 'bool', [koffi.pointer(ServiceTableEntry)]);
const RegisterServiceCtrlHandlerExW = advapi32.func('__stdcall', 'RegisterServiceCtrlHandlerExW', 'void *', ['str16', koffi.pointer(HandlerExProc), 'void *']);
const SetServiceStatus = advapi32.func('__stdcall', 'SetServiceStatus', 'bool', ['void *', koffi.pointer(ServiceStatus)]);
const OpenSCManagerW = advapi32.func('__stdcall', 'OpenSCManagerW', 'void *', ['str16', 'str16', 'uint32']);
const OpenServiceW = advapi32.func('__stdcall', 'OpenServiceW', 'void *', ['void *', 'str16', 'uint32']);
const QueryServiceStatus = advapi32.func('__stdcall', 'QueryServiceStatus', 'bool', ['void *', koffi.out(koffi.pointer(ServiceStatus))]);
const CloseServiceHandle = advapi32.func('__stdcall', 'CloseServiceHandle', 'bool', ['void *']);

const SERVICE_WIN32_OWN_PROCESS = 0x10;
const SERVICE_ACCEPT_STOP = 0x1;
const SERVICE_ACCEPT_SHUTDOWN = 0x4;
const SERVICE_CONTROL_STOP = 1;
const SERVICE_CONTROL_INTERROGATE = 4;
const SERVICE_CONTROL_SHUTDOWN = 5;
const SC_MANAGER_CONNECT = 0x1;
const SC_MANAGER_CREATE_SERVICE = 0x2;
const SERVICE_QUERY_STATUS = 0x4;


export interface ServiceRun {
  /** ServiceMain: start the work; resolves once it runs (the SCM is told RUNNING then). */
  start(): Promise<void>;
  /** SERVICE_CONTROL_STOP or SHUTDOWN: stop the work; the SCM is told STOPPED when this resolves. */
  stop(reason: 'stop' | 'shutdown'): Promise<void>;
  /** A line for the service's log (what the SCM asked, what went wrong). */
  log(text: string): void;
}

/**
 * Runs this process as the service `name` until the SCM stops it. Answers 'not-a-service' when the process was not
 * started by the SCM (run from a console: ERROR_FAILED_SERVICE_CONTROLLER_CONNECT), 'stopped' after SERVICE_STOPPED.
 */
export function runAsService(name: string, run: ServiceRun): Promise<'stopped' | 'not-a-service'> {
  let statusHandle: unknown = null;
  let checkPoint = 0;
  let stopping: Promise<void> | null = null;
  const report = (state: number, { exitCode = 0, waitHint = 0 } = {}) => {
    if (!statusHandle) return;
    const pending = state === serviceStates.startPending || state === serviceStates.stopPending;
    const status: ServiceStatusValue = {
      dwServiceType: SERVICE_WIN32_OWN_PROCESS,
      dwCurrentState: state,
      dwControlsAccepted: state === serviceStates.running ? SERVICE_ACCEPT_STOP | SERVICE_ACCEPT_SHUTDOWN : 0,
      dwWin32ExitCode: exitCode === 0 ? 0 : win32Errors.serviceSpecificError,
      dwServiceSpecificExitCode: exitCode,
      dwCheckPoint: pending ? ++checkPoint : 0,
      dwWaitHint: waitHint,
    };
    if (!SetServiceStatus(statusHandle, status)) run.log(`SetServiceStatus(${stateName(state)}) failed: Win32 error ${lastError()}`);
  };

  const stop = (reason: 'stop' | 'shutdown') => {
    stopping ??= (async () => {
      report(serviceStates.stopPending, { waitHint: 15_000 });
      let exitCode = 0;
      try {
        await run.stop(reason);
      } catch (error) {
        run.log(`stopping failed: ${error instanceof Error ? error.message : String(error)}`);
        exitCode = 1;
      }
      report(serviceStates.stopped, { exitCode });
    })();
  };

  const handler = koffi.register((control: number) => {
    if (control === SERVICE_CONTROL_STOP || control === SERVICE_CONTROL_SHUTDOWN) {
      // returns to the SCM at once; stopping goes on in the event loop
      setImmediate(() => stop(control === SERVICE_CONTROL_STOP ? 'stop' : 'shutdown'));
      return 0;
    }
    return control === SERVICE_CONTROL_INTERROGATE ? 0 : win32Errors.callNotImplemented;
  }, koffi.pointer(HandlerExProc));

  let mainCalled = false;
  const serviceMain = koffi.register(() => {
    mainCalled = true;
    statusHandle = RegisterServiceCtrlHandlerExW(name, handler, null);
    if (!statusHandle) {
      run.log(`RegisterServiceCtrlHandlerExW failed: Win32 error ${lastError()}`);
      return;
    }
    report(serviceStates.startPending, { waitHint: 30_000 });
    // ServiceMain returns now (Microsoft's own samples do): the service goes on until it reports SERVICE_STOPPED
    setImmediate(() => {
      run.start().then(
        () => {
          if (!stopping) report(serviceStates.running);
        },
        (error: unknown) => {
          run.log(`starting failed: ${error instanceof Error ? error.message : String(error)}`);
          report(serviceStates.stopped, { exitCode: 1 });
        },
      );
    });
  }, koffi.pointer(ServiceMainProc));

  return new Promise((resolve, reject) => {
    const table = [
      { lpServiceName: name, lpServiceProc: serviceMain },
      { lpServiceName: null, lpServiceProc: null },
    ];
    // the call's last-error value stays on koffi's worker thread: a dispatcher that fails before ServiceMain ran
    // is ERROR_FAILED_SERVICE_CONTROLLER_CONNECT in practice (the process was not started by the SCM)
    StartServiceCtrlDispatcherW.async(table, (error: unknown, ok: boolean) => {
      koffi.unregister(serviceMain);
      koffi.unregister(handler);
      if (error) reject(error instanceof Error ? error : new Error(String(error)));
      else if (ok) resolve('stopped');
      else if (!mainCalled) resolve('not-a-service');
      else reject(new Error('StartServiceCtrlDispatcherW failed after the service started'));
    });
  });
}

export type ServiceQuery = { installed: false } | { installed: true; state: ServiceStateName };

export class ServiceManagerError extends Error {
  constructor(
    readonly call: string,
    readonly code: number,
  ) {
    super(`${call} failed: Win32 error ${code}`);
  }
}

/** May this process create services (an administrator's elevated process)? */
export function canManageServices(): boolean {
  const manager = OpenSCManagerW(null, null, SC_MANAGER_CONNECT | SC_MANAGER_CREATE_SERVICE);
  if (manager) {
    CloseServiceHandle(manager);
    return true;
  }
  const code = lastError();
  if (code === win32Errors.accessDenied) return false;
  throw new ServiceManagerError('OpenSCManagerW', code);
}

/** Whether the service `name` is installed, and its state. */
export function queryService(name: string): ServiceQuery {
  const manager = OpenSCManagerW(null, null, SC_MANAGER_CONNECT);
  if (!manager) throw new ServiceManagerError('OpenSCManagerW', lastError());
  try {
    const service = OpenServiceW(manager, name, SERVICE_QUERY_STATUS);
    if (!service) {
      const code = lastError();
      if (code === win32Errors.serviceDoesNotExist) return { installed: false };
      throw new ServiceManagerError('OpenServiceW', code);
    }
    try {
      const status = {} as ServiceStatusValue;
      if (!QueryServiceStatus(service, status)) throw new ServiceManagerError('QueryServiceStatus', lastError());
      return { installed: true, state: stateName(status.dwCurrentState) };
    } finally {
      CloseServiceHandle(service);
    }
  } finally {
    CloseServiceHandle(manager);
  }
}
