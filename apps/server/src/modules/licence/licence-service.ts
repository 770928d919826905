import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { codeMessage, codes, isWithinValidity, licenceLimits, licenceStates, licenceTypes } from '@campus/contracts';
import type { BusinessCode, CustomerInfo, LanguageCode, LicenceApp, LicenceDetail, LicencePayload, LicencePermission, LicenceRow, LicenceUploadResult } from '@campus/contracts';
import type { ChangeStamps } from '../../db/change-stamps.ts';
import type { DB } from '../../db/schema.ts';
import { AppError } from '../../http/envelope.ts';
import { newId, sha256Hex } from '../../lib/hash.ts';
import { pauseAt } from '../../lib/pause-points.ts';
import { StampedCache } from '../../lib/stamped-cache.ts';
import type { InstallationSnapshot } from '../../http/types.ts';
import type { OperationLogService } from '../operation-log/operation-log-service.ts';
import { LicenceFormatError, checkSignature, parseLicenceFile, readPayload } from './licence-file.ts';
import type { TrustList } from './licence-file.ts';
import { LicenceRepository } from './licence-repository.ts';
import type { InstallationRecord, LicenceRecord } from './licence-repository.ts';
import { clockToleranceMs, dayMs, effectiveness, licenceStatus, termDays } from './licence-state.ts';
import type { EvaluatedLicence, LicenceCheck, LicenceStatus } from './licence-state.ts';

export type { LicenceCheck, LicenceStatus } from './licence-state.ts';

/** Who acted (for the operation log); null for the seed. */
export interface LicenceActor {
  /** installationWide for an act over HTTP: a licence is the installation's. */
  tenantCode: string;
  account: string;
  clientIp: string;
}

export interface UploadedFile {
  fileName: string;
  bytes: Buffer;
}

/** What the operator's add did: in effect now (or already), or why not. */
export type OperatorAddOutcome =
  | { ok: true; code: string; alreadyInEffect: boolean; adoptedCustomerNo: string | null }
  | { ok: false; message: string };

/** The fixed code of the installation's trial: the unique code column keeps it to one per installation. */
export const trialCode = 'TRIAL';
/** The latest time seen is written at most this often (every evaluation reads it). */
const latestSeenStepMs = 60_000;

/** A stored licence checked against the installation: everything its evaluation needs but the clock. */
interface CheckedLicence {
  state: number;
  check: LicenceCheck;
  isFormal: boolean;
  beginTime: number | null;
  endTime: number | null;
}

/** What a signed-in call read with its session: the licence in effect is evaluated from these without reading it. */
export interface LicenceReadWithSession {
  stamps: ChangeStamps | null;
  installation: InstallationSnapshot | null;
}

type FileCheck = { ok: true; payload: LicencePayload; hash: string } | { ok: false; code: BusinessCode; values?: Record<string, string> };

function fileHash(bytes: Uint8Array): string {
  return sha256Hex(bytes);
}

/** A new installation's system code: 16 upper-case hex digits. */
function newSystemCode(): string {
  return randomBytes(8).toString('hex').toUpperCase();
}

export interface LicenceServiceDeps {
  repo: LicenceRepository;
  trust: TrustList;
  logs: OperationLogService;
  now: () => number;
}

/**
 * Licences (spec §3, §4, §7; DESIGN §5): signed files uploaded and activated by system administrators,
 * one server-made trial per installation, and the status every other area reads. Stored files are
 * verified again whenever they are evaluated (the verified payload of each file hash is cached in memory:
 * only a cache, the database holds everything). The latest time seen lives in the database, so a clock
 * set back on any server of the installation is noticed by all.
 */
export class LicenceService {
  private readonly verified = new Map<string, LicencePayload>();
  /** The licence in effect (null: none), checked, per customer number, under the licences' change stamp. */
  private readonly activeChecked = new StampedCache<string, CheckedLicence | null>(4);

  private readonly repo: LicenceRepository;
  private readonly trust: TrustList;
  private readonly logs: OperationLogService;
  private readonly now: () => number;

  constructor(deps: LicenceServiceDeps) {
    this.repo = deps.repo;
    this.trust = deps.trust;
    this.logs = deps.logs;
    this.now = deps.now;
  }

  // ---- installation identity and clock ----

  /**
   * Makes sure the installation row exists: a new one gets `explicit ?? fallback` and a fresh system
   * code; an existing one takes `explicit` (CUSTOMER_NO) when set.
   */
  async ensureInstallation(explicit: string | null, fallback: string): Promise<InstallationRecord> {
    await this.repo.insertInstallationIfAbsent({ customer_no: explicit ?? fallback, system_code: newSystemCode(), latest_seen: this.now(), created_at: this.now() });
    const row = await this.installation();
    if (explicit !== null && row.customer_no !== explicit) {
      await this.repo.setCustomerNo(explicit);
      return { ...row, customer_no: explicit };
    }
    return row;
  }

  private async installation(): Promise<InstallationRecord> {
    const row = await this.repo.installation();
    if (row) return row;
    // a database that was never seeded by this version: no customer number yet, so every licence is for another installation
    await this.repo.insertInstallationIfAbsent({ customer_no: '', system_code: newSystemCode(), latest_seen: this.now(), created_at: this.now() });
    const made = await this.repo.installation();
    if (!made) throw new Error('the installation row could not be created');
    return made;
  }

  /**
   * Takes the customer number of the mother card that initialised a gate installation, when none is set yet; through
   * `db`, the initialisation's transaction.
   */
  async adoptCustomerNo(customerNo: string, db?: Kysely<DB>): Promise<void> {
    await (db ? new LicenceRepository(db) : this.repo).adoptCustomerNo(customerNo);
  }

  /** Records how the installation was first seeded (the demo trusts the repository's test licence keys). */
  async markSeed(seed: 'demo' | 'production'): Promise<void> {
    await this.installation();
    await this.repo.setSeed(seed);
  }

  /** Whether the installation was seeded with the demo. */
  async isDemo(): Promise<boolean> {
    return (await this.installation()).seed === 'demo';
  }

  async customerInfo(): Promise<CustomerInfo> {
    const row = await this.installation();
    return { customerNo: row.customer_no, systemCode: row.system_code };
  }

  /** Whether the clock is behind the latest time seen (by more than the tolerance); otherwise moves that time on. */
  private async clockSetBack(latestSeen: number, now: number): Promise<boolean> {
    if (now < latestSeen - clockToleranceMs) return true;
    if (now - latestSeen >= latestSeenStepMs) await this.repo.raiseLatestSeen(now);
    return false;
  }

  // ---- checking files ----

  /** A file's verified payload, or why it is refused. Does not look at the installation or the clock. */
  private checkFile(bytes: Uint8Array): FileCheck {
    if (bytes.length > licenceLimits.maxFileBytes) return { ok: false, code: codes.licenceFileTooLarge, values: { max: String(licenceLimits.maxFileBytes / 1024) } };
    if (this.trust.size === 0) return { ok: false, code: codes.licenceNoTrustedKey };
    const hash = fileHash(bytes);
    const cached = this.verified.get(hash);
    if (cached) return { ok: true, payload: cached, hash };
    try {
      const parsed = parseLicenceFile(bytes);
      if (checkSignature(parsed, this.trust) !== 'ok') return { ok: false, code: codes.licenceTampered };
      const payload = readPayload(parsed.payloadBytes);
      this.verified.set(hash, payload);
      return { ok: true, payload, hash };
    } catch (error) {
      if (error instanceof LicenceFormatError) return { ok: false, code: codes.licenceTampered };
      throw error;
    }
  }

  /** The check of a stored licence: its file again (trials have none) and its customer number. */
  private checkStored(record: LicenceRecord, customerNo: string): { check: LicenceCheck; payload: LicencePayload | null } {
    if (record.is_trial === 1) return { check: record.customer_no === customerNo ? 'ok' : 'otherInstallation', payload: null };
    const result = this.checkFile(Buffer.from(record.file_text ?? '', 'utf8'));
    if (!result.ok) return { check: result.code === codes.licenceNoTrustedKey ? 'untrusted' : 'tampered', payload: null };
    return { check: result.payload.customerNo === customerNo ? 'ok' : 'otherInstallation', payload: result.payload };
  }

  // ---- reading ----

  /** A stored licence as lists show it; a file's fields come from its verified payload, not the columns. */
  private toDetail(record: LicenceRecord, payload: LicencePayload | null, now: number): LicenceDetail {
    const p = payload ?? {
      customerName: record.customer_name,
      prdPkgCategory: record.prd_pkg_category,
      isFormal: record.is_formal === 1,
      beginTime: record.begin_time,
      endTime: record.end_time,
      empCount: record.emp_count,
      isHasMobile: record.is_has_mobile === 1,
      isPermitOpenapi: record.is_permit_openapi === 1,
      isLimitDevice: record.is_limit_device === 1,
      infos: JSON.parse(record.infos) as LicenceDetail['infos'],
      devices: JSON.parse(record.devices) as LicenceDetail['devices'],
    };
    const row: LicenceRow = {
      id: record.id,
      code: record.code,
      beginTime: p.beginTime,
      endTime: p.endTime,
      activateTime: record.activate_time,
      loseActivateTime: p.endTime,
      state: record.state,
      effectiveness: effectiveness(p.beginTime, p.endTime, now),
      isFormal: p.isFormal,
      prdPkgCategory: p.prdPkgCategory,
      empCount: p.empCount,
      isLimitDevice: p.isLimitDevice,
      customerName: p.customerName,
      createTime: record.created_at,
    };
    return { ...row, isHasMobile: p.isHasMobile, isPermitOpenapi: p.isPermitOpenapi, term: termDays(p.beginTime, p.endTime), infos: p.infos, devices: p.devices };
  }

  private async describe(record: LicenceRecord | undefined): Promise<LicenceDetail | null> {
    if (!record) return null;
    const { customer_no: customerNo } = await this.installation();
    return this.toDetail(record, this.checkStored(record, customerNo).payload, this.now());
  }

  async search(index: number, size: number): Promise<{ licenses: LicenceRow[]; count: number }> {
    const [records, count, installation] = await Promise.all([this.repo.page((index - 1) * size, size), this.repo.count(), this.installation()]);
    const now = this.now();
    const licenses = records.map((r) => {
      const { infos: _infos, devices: _devices, isHasMobile: _m, isPermitOpenapi: _o, term: _t, ...row } = this.toDetail(r, this.checkStored(r, installation.customer_no).payload, now);
      return row;
    });
    return { licenses, count };
  }

  async detail(query: { id?: string; code?: string }): Promise<LicenceDetail> {
    const record = query.id !== undefined ? await this.repo.byId(query.id) : await this.repo.byCode(query.code ?? '');
    const found = await this.describe(record);
    if (!found) throw new AppError(codes.notFound, { status: 404 });
    return found;
  }

  /** The licence in effect (state normal), whatever its dates; null when none. */
  async current(): Promise<LicenceDetail | null> {
    return this.describe((await this.repo.all()).find((r) => r.state === licenceStates.normal));
  }

  /** isNormal, licenseType and licenseState (spec §4) from every stored licence and the clock. */
  async status(): Promise<LicenceStatus> {
    const [records, installation] = await Promise.all([this.repo.all(), this.installation()]);
    const now = this.now();
    const setBack = await this.clockSetBack(installation.latest_seen, now);
    return licenceStatus(records.map((r) => this.evaluate(this.checked(r, installation.customer_no), now)), setBack);
  }

  /** A stored licence checked against the installation's customer number (its file verified). */
  private checked(record: LicenceRecord, customerNo: string): CheckedLicence {
    const { check, payload } = this.checkStored(record, customerNo);
    // only the dates are taken here: the clock is applied by evaluate
    const { isFormal, beginTime, endTime } = this.toDetail(record, payload, 0);
    return { state: record.state, check, isFormal, beginTime, endTime };
  }

  /** A checked licence as the status reads it at `now`: its check, type, state and effectiveness. */
  private evaluate(licence: CheckedLicence, now: number): EvaluatedLicence {
    return {
      state: licence.state,
      licenseType: licence.isFormal ? licenceTypes.formal : licenceTypes.trial,
      check: licence.check,
      effectiveness: effectiveness(licence.beginTime, licence.endTime, now),
    };
  }

  /**
   * Whether the installation runs on a valid licence now: status().isNormal from the licence in effect alone
   * (without one, no reading of §4 is normal). Every signed-in call asks: given what it read with its session
   * (`seen`), the licence in effect is read and verified again only when its change stamp moved, and the clock
   * check uses the latest time seen read there; without `seen` (or without stamps), both are read now.
   */
  async isNormal(seen?: LicenceReadWithSession): Promise<boolean> {
    const now = this.now();
    if (seen?.stamps && seen.installation) {
      const { customerNo, latestSeen } = seen.installation;
      const active = await this.activeChecked.get(customerNo, seen.stamps.licences, async () => {
        const record = await this.repo.active();
        return record ? this.checked(record, customerNo) : null;
      });
      return active !== null && licenceStatus([this.evaluate(active, now)], await this.clockSetBack(latestSeen, now)).isNormal;
    }
    const [active, installation] = await Promise.all([this.repo.active(), this.installation()]);
    if (!active) return false;
    const setBack = await this.clockSetBack(installation.latest_seen, now);
    return licenceStatus([this.evaluate(this.checked(active, installation.customer_no), now)], setBack).isNormal;
  }

  /**
   * What the caller may do about licences: a system administrator views them; adding one (an upload, then its
   * activation) and the trial change what every tenant runs on, so they are an installation administrator's.
   */
  async permission(isSystemAdmin: boolean, isInstallationAdmin: boolean): Promise<LicencePermission> {
    const [status, hadTrial] = await Promise.all([this.status(), this.repo.hasTrial()]);
    const mayChange = isSystemAdmin && isInstallationAdmin;
    return {
      ...status,
      isSystemAdmin,
      isViewPermission: isSystemAdmin,
      isAddOfficialPermission: mayChange,
      isAddTrialPermission: mayChange && !hadTrial && !status.isNormal,
    };
  }

  // ---- changing ----

  /** Checks and stores each file on its own; answers one result per file, in order. `note` goes into the log entry. */
  async upload(files: UploadedFile[], actor: LicenceActor | null, language: LanguageCode, note = ''): Promise<LicenceUploadResult[]> {
    const { customer_no: customerNo } = await this.installation();
    const results: LicenceUploadResult[] = [];
    for (const file of files) {
      const fileName = file.fileName.slice(0, 255);
      const refuse = (code: BusinessCode, values: Record<string, string> = {}): LicenceUploadResult => ({ fileName, ok: false, id: null, code: null, msg: codeMessage(code, language, values) });
      if (!/\.lic$/i.test(fileName)) {
        results.push(refuse(codes.licenceNotLicFile));
        continue;
      }
      const checked = this.checkFile(file.bytes);
      if (!checked.ok) {
        results.push(refuse(checked.code, checked.values));
        continue;
      }
      const { payload, hash } = checked;
      if (payload.customerNo !== customerNo) {
        results.push(refuse(codes.licenceOtherInstallation, { customerNo: payload.customerNo }));
        continue;
      }
      const id = newId();
      const inserted = await this.repo.insertIfCodeFree({
        id,
        code: payload.code,
        file_text: file.bytes.toString('utf8'),
        file_hash: hash,
        is_trial: 0,
        customer_no: payload.customerNo,
        customer_name: payload.customerName,
        prd_pkg_category: payload.prdPkgCategory,
        is_formal: payload.isFormal ? 1 : 0,
        begin_time: payload.beginTime,
        end_time: payload.endTime,
        emp_count: payload.empCount,
        is_has_mobile: payload.isHasMobile ? 1 : 0,
        is_permit_openapi: payload.isPermitOpenapi ? 1 : 0,
        is_limit_device: payload.isLimitDevice ? 1 : 0,
        infos: JSON.stringify(payload.infos),
        devices: JSON.stringify(payload.devices),
        activate_time: null,
        state: licenceStates.notActivated,
        created_at: this.now(),
      });
      const stored = inserted ? { id, file_hash: hash } : await this.repo.byCode(payload.code);
      if (!stored || stored.file_hash !== hash) {
        results.push(refuse(codes.licenceCodeConflict, { code: payload.code }));
        continue;
      }
      results.push({ fileName, ok: true, id: stored.id, code: payload.code, msg: codeMessage(codes.ok, language) });
    }
    if (actor) {
      const accepted = results.filter((r) => r.ok).map((r) => r.code);
      const refused = results.length - accepted.length;
      await this.logs.record({ ...actor, action: 'licence-upload', result: accepted.length > 0 ? 'success' : 'failure', detail: `accepted: ${accepted.join(', ') || 'none'}; refused: ${refused}${note ? `; ${note}` : ''}`.slice(0, 1000) });
    }
    return results;
  }

  /** Makes a stored licence the one in effect; the one before it becomes replaced (6). */
  async activate(id: string, actor: LicenceActor | null): Promise<void> {
    const record = await this.repo.byId(id);
    if (!record) throw new AppError(codes.notFound, { status: 404 });
    const fail = async (code: BusinessCode, values: Record<string, string> = {}) => {
      if (actor) await this.logs.record({ ...actor, action: 'licence-activate', result: 'failure', detail: `${record.code}: code ${code}` });
      throw new AppError(code, { values });
    };
    const installation = await this.installation();
    const now = this.now();
    if (await this.clockSetBack(installation.latest_seen, now)) return fail(codes.licenceTampered);
    const { check, payload } = this.checkStored(record, installation.customer_no);
    if (check === 'tampered') return fail(codes.licenceTampered);
    if (check === 'untrusted') return fail(codes.licenceNoTrustedKey);
    if (check === 'otherInstallation') return fail(codes.licenceOtherInstallation, { customerNo: payload?.customerNo ?? record.customer_no });
    if (!isWithinValidity(this.toDetail(record, payload, now).effectiveness)) return fail(codes.licenceNotActivatable);
    await this.repo.transaction(async (repo, trx) => {
      if (record.state !== licenceStates.normal) {
        await repo.replaceActive(record.id);
        await pauseAt('licence.activate');
        await repo.putInEffect(record.id, now);
      }
      if (actor) await this.logs.over(trx).record({ ...actor, action: 'licence-activate', result: 'success', detail: record.code });
    });
  }

  /**
   * The installation operator's add (`campus licence add`, `install.sh --licence`): the vendor's file checked, stored
   * and put in effect in one go; the licence in effect before it becomes replaced (6). An installation that has no
   * customer number yet (a production start without CUSTOMER_NO) takes the licence's, provided the licence can be put
   * in effect now: the vendor signed it for that customer, and the operator on the server chose to install it. Over
   * HTTP nothing adopts a customer number. Refusals come back as the upload's and the activation's words.
   */
  async addByOperator(file: UploadedFile, actor: LicenceActor): Promise<OperatorAddOutcome> {
    const refuse = (code: BusinessCode, values: Record<string, string> = {}): OperatorAddOutcome => ({ ok: false, message: codeMessage(code, 'en-US', values) });
    const checked = this.checkFile(file.bytes);
    if (!checked.ok) {
      await this.logs.record({ ...actor, action: 'licence-upload', result: 'failure', detail: `accepted: none; refused: 1 (code ${checked.code})` });
      return refuse(checked.code, checked.values);
    }
    const { payload } = checked;
    let adoptedCustomerNo: string | null = null;
    if ((await this.installation()).customer_no === '') {
      if (!isWithinValidity(effectiveness(payload.beginTime, payload.endTime, this.now()))) return refuse(codes.licenceNotActivatable);
      if (await this.repo.adoptCustomerNo(payload.customerNo)) adoptedCustomerNo = payload.customerNo;
    }
    const note = adoptedCustomerNo === null ? '' : `the installation took its customer number ${adoptedCustomerNo} from it`;
    const [uploaded] = await this.upload([file], actor, 'en-US', note);
    if (!uploaded?.ok || uploaded.id === null) return { ok: false, message: uploaded?.msg ?? 'the licence was not stored' };
    const stored = await this.repo.byId(uploaded.id);
    if (stored?.state === licenceStates.normal) return { ok: true, code: payload.code, alreadyInEffect: true, adoptedCustomerNo };
    try {
      await this.activate(uploaded.id, actor);
    } catch (error) {
      if (error instanceof AppError) return { ok: false, message: `${payload.code} is stored but not in effect: ${error.messageIn('en-US')}` };
      throw error;
    }
    return { ok: true, code: payload.code, alreadyInEffect: false, adoptedCustomerNo };
  }

  /** Every stored licence as `campus licence list` shows it, with its check, newest first; and the installation's status. */
  async overview(): Promise<{ customer: CustomerInfo; status: LicenceStatus; licences: (LicenceDetail & { check: LicenceCheck })[] }> {
    const [records, installation, status] = await Promise.all([this.repo.all(), this.installation(), this.status()]);
    const now = this.now();
    const licences = records.map((record) => {
      const { check, payload } = this.checkStored(record, installation.customer_no);
      return { ...this.toDetail(record, payload, now), check };
    });
    return { customer: { customerNo: installation.customer_no, systemCode: installation.system_code }, status, licences };
  }

  /**
   * Registers the installation's one trial: the given applications, from now for 30 days, in effect at
   * once. The caller has confirmed the administrator's password and that the applications exist.
   */
  async addTrial(apps: LicenceApp[], actor: LicenceActor): Promise<void> {
    const fail = async (code: BusinessCode) => {
      await this.logs.record({ ...actor, action: 'licence-trial', result: 'failure', detail: `code ${code}` });
      throw new AppError(code);
    };
    if (await this.repo.hasTrial()) return fail(codes.trialAlreadyRegistered);
    if ((await this.status()).isNormal) return fail(codes.trialNotNeeded);
    const installation = await this.installation();
    const now = this.now();
    const id = newId();
    // the trial, in effect, and its log entry land together: a trial stored but never in effect would take the
    // installation's one trial for nothing
    const inserted = await this.repo.transaction(async (repo, trx) => {
      const added = await repo.insertIfCodeFree({
        id,
        code: trialCode,
        file_text: null,
        file_hash: null,
        is_trial: 1,
        customer_no: installation.customer_no,
        customer_name: installation.customer_no,
        prd_pkg_category: 'Trial',
        is_formal: 0,
        begin_time: now,
        end_time: now + licenceLimits.trialDays * dayMs,
        emp_count: licenceLimits.unlimitedEmployees,
        is_has_mobile: 1,
        is_permit_openapi: 0,
        is_limit_device: 0,
        infos: JSON.stringify(apps.map((a) => ({ appId: a.appId, appName: a.appName, editionName: 'Trial', beginTime: null, endTime: null, isHasWeb: true, isHasMobile: true }))),
        devices: '[]',
        activate_time: null,
        state: licenceStates.notActivated,
        created_at: now,
      });
      if (!added) return false;
      await repo.replaceActive(id);
      await repo.putInEffect(id, now);
      await this.logs.over(trx).record({ ...actor, action: 'licence-trial', result: 'success', detail: `applications: ${apps.map((a) => a.appId).join(', ')}` });
      return true;
    });
    if (!inserted) return fail(codes.trialAlreadyRegistered);
  }
}
