import { describe, expect, it } from 'vitest';
import type { GateSetupState } from '@campus/contracts';
import { afterMasterCard, firstMissingStep, gateEntryRedirect } from './gate-setup.ts';

const fresh: GateSetupState = { mjSystem: 21, isGate: true, isInit: false, hasSecret: false, isIssueSecretCard: false, isIssueSuperAdminCard: false, customerNo: '10001' };
const initialised = { ...fresh, isInit: true, hasSecret: true };
const keyed = { ...initialised, isIssueSecretCard: true };
const done = { ...keyed, isIssueSuperAdminCard: true };

describe('the entry checks of the card screens (spec §2, §4 "Gate set-up order")', () => {
  it('sends every card screen to /login outside gate deployments', () => {
    for (const screen of ['systemInit', 'masterCard', 'keyCard', 'superAdminCard', 'login', 'reSwipe', 'selectFunc', 'management'] as const) {
      expect(gateEntryRedirect(screen, 1, done, true), screen).toBe('/login');
      expect(gateEntryRedirect(screen, 30, done, true), screen).toBe('/login');
    }
  });

  it('finds the first missing step in order', () => {
    expect(firstMissingStep(fresh, false)).toBe('systemInit');
    expect(firstMissingStep({ ...initialised, hasSecret: false }, true)).toBe('recoverSecret');
    expect(firstMissingStep(initialised, false)).toBe('masterCard');
    expect(firstMissingStep(initialised, true)).toBe('keyCard');
    expect(firstMissingStep(keyed, true)).toBe('superAdminCard');
    expect(firstMissingStep(keyed, false)).toBe('masterCard');
    expect(firstMissingStep(done, false)).toBe('login');
  });

  it('a deep link at each stage lands on the first missing step', () => {
    expect(gateEntryRedirect('login', 21, fresh, false)).toBe('/system-init');
    expect(gateEntryRedirect('keyCard', 29, fresh, true)).toBe('/system-init');
    expect(gateEntryRedirect('systemInit', 21, fresh, false)).toBeNull();
    expect(gateEntryRedirect('systemInit', 21, initialised, false)).toBe('/swipe-master-card-gm');
    expect(gateEntryRedirect('keyCard', 21, initialised, false)).toBe('/swipe-master-card-gm');
    expect(gateEntryRedirect('keyCard', 21, initialised, true)).toBeNull();
    expect(gateEntryRedirect('superAdminCard', 21, initialised, true)).toBe('/swiper-sys-secret');
    expect(gateEntryRedirect('superAdminCard', 21, keyed, true)).toBeNull();
    expect(gateEntryRedirect('login', 21, keyed, true)).toBe('/create-superuser');
    expect(gateEntryRedirect('login', 21, done, false)).toBeNull();
    expect(gateEntryRedirect('keyCard', 21, done, true)).toBe('/swipe-login');
    expect(gateEntryRedirect('systemInit', 21, done, true)).toBe('/swipe-login');
  });

  it('the mother card may be swiped again once initialised; management needs its token', () => {
    expect(gateEntryRedirect('masterCard', 21, fresh, false)).toBe('/system-init');
    expect(gateEntryRedirect('masterCard', 21, done, true)).toBeNull();
    expect(gateEntryRedirect('management', 21, done, false)).toBe('/swipe-master-card-gm');
    expect(gateEntryRedirect('management', 21, done, true)).toBeNull();
    expect(gateEntryRedirect('management', 21, fresh, true)).toBe('/system-init');
    expect(gateEntryRedirect('reSwipe', 21, done, false)).toBeNull();
    expect(gateEntryRedirect('reSwipe', 21, initialised, false)).toBe('/swipe-master-card-gm');
    expect(gateEntryRedirect('selectFunc', 21, fresh, false)).toBeNull();
  });

  it('the card tables take a master-card token or a session; the key card table also while the key is lost (recovery)', () => {
    const lost = { ...done, hasSecret: false };
    for (const screen of ['adminCards', 'keyCards'] as const) {
      expect(gateEntryRedirect(screen, 21, done, true, false), screen).toBeNull();
      expect(gateEntryRedirect(screen, 21, done, false, true), screen).toBeNull();
      expect(gateEntryRedirect(screen, 21, fresh, true, true), screen).toBe('/system-init');
      expect(gateEntryRedirect(screen, 30, done, true, true), screen).toBe('/login');
    }
    // neither: the mother-card swipe that comes back to the table
    expect(gateEntryRedirect('adminCards', 21, done, false, false)).toBe('/swipe-master-card-gm');
    expect(gateEntryRedirect('keyCards', 21, done, false, false)).toBe('/key-card-swipe-master-card-gm');
    expect(gateEntryRedirect('keyCards', 21, lost, false, true)).toBeNull();
    expect(gateEntryRedirect('keyCards', 21, lost, false, false)).toBe('/re-swipe-sys-sceret');
    expect(gateEntryRedirect('adminCards', 21, lost, true, true)).toBe('/re-swipe-sys-sceret');
    // the super administrator's card stays a master-card screen
    expect(gateEntryRedirect('management', 21, done, false, true)).toBe('/swipe-master-card-gm');
  });

  it('after the mother card: the next set-up step, else card management of the variant', () => {
    expect(afterMasterCard(initialised, false)).toBe('/swiper-sys-secret');
    expect(afterMasterCard(keyed, true)).toBe('/create-superuser');
    expect(afterMasterCard(done, false)).toBe('/systemadmin-logincard');
    expect(afterMasterCard(done, true)).toBe('/system-keycard');
  });
});
