import { describe, expect, it } from 'vitest';
import type { GateSetupState } from '@campus/contracts';
import { afterKeyReload, afterMasterCard, firstMissingStep, gateEntryRedirect, gateFamilyOf, gateStepPathsOf } from './gate-setup.ts';

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
      expect(gateEntryRedirect(screen, 30, done, true, true), screen).toBe('/login');
    }
    // each table leads into its own family's set-up
    expect(gateEntryRedirect('adminCards', 21, fresh, true, true)).toBe('/system-init');
    expect(gateEntryRedirect('keyCards', 21, fresh, true, true)).toBe('/key-card-system-init');
    // neither: the mother-card swipe that comes back to the table
    expect(gateEntryRedirect('adminCards', 21, done, false, false)).toBe('/swipe-master-card-gm');
    expect(gateEntryRedirect('keyCards', 21, done, false, false)).toBe('/key-card-swipe-master-card-gm');
    expect(gateEntryRedirect('keyCards', 21, lost, false, true)).toBeNull();
    expect(gateEntryRedirect('keyCards', 21, lost, false, false)).toBe('/re-swipe-sys-sceret');
    expect(gateEntryRedirect('adminCards', 21, lost, true, true)).toBe('/re-swipe-sys-sceret');
    // the super administrator's card stays a master-card screen
    expect(gateEntryRedirect('management', 21, done, false, true)).toBe('/swipe-master-card-gm');
  });

  it('after the mother card: the next set-up step of its family, else that family\'s card management (spec §4)', () => {
    expect(afterMasterCard(initialised, 'plain')).toBe('/swiper-sys-secret');
    expect(afterMasterCard(keyed, 'plain')).toBe('/create-superuser');
    expect(afterMasterCard(done, 'plain')).toBe('/systemadmin-logincard');
    // spec §4: the key-card swipe goes on to /key-card-swiper-sys-secret or /system-keycard
    expect(afterMasterCard(initialised, 'keyCard')).toBe('/key-card-swiper-sys-secret');
    expect(afterMasterCard(keyed, 'keyCard')).toBe('/key-card-create-superuser');
    expect(afterMasterCard(done, 'keyCard')).toBe('/system-keycard');
  });
});

describe('the two route families (issue 25, item 14)', () => {
  const keyCardRoutes = ['/key-card-system-init', '/key-card-swipe-master-card', '/key-card-swipe-master-card-gm', '/key-card-swiper-sys-secret', '/key-card-create-superuser', '/key-card-swipe-login', '/system-keycard'];
  const plainRoutes = ['/system-init', '/swipe-master-card', '/swipe-master-card-gm', '/swiper-sys-secret', '/create-superuser', '/swipe-login', '/pwd-swipe-login', '/systemadmin-logincard', '/super-user-card', '/re-swipe-sys-sceret'];

  it('tells a key-card route from a plain one', () => {
    for (const path of keyCardRoutes) expect(gateFamilyOf(path), path).toBe('keyCard');
    for (const path of plainRoutes) expect(gateFamilyOf(path), path).toBe('plain');
  });

  it('every step of a family is a route of that family (one shared screen: reading the key card again)', () => {
    for (const [step, path] of Object.entries(gateStepPathsOf.keyCard)) {
      if (step !== 'recoverSecret') expect(gateFamilyOf(path), step).toBe('keyCard');
    }
    for (const path of Object.values(gateStepPathsOf.plain)) expect(gateFamilyOf(path), path).toBe('plain');
  });

  it('a finished set-up sends a key-card screen to key-card-swipe-login (spec §2 "Entry checks"), a plain one to /swipe-login', () => {
    for (const screen of ['systemInit', 'keyCard', 'superAdminCard'] as const) {
      expect(gateEntryRedirect(screen, 21, done, true, false, 'keyCard'), screen).toBe('/key-card-swipe-login');
      expect(gateEntryRedirect(screen, 21, done, true, false, 'plain'), screen).toBe('/swipe-login');
    }
  });

  it('a key-card screen ahead of the order goes to the first missing key-card step', () => {
    expect(gateEntryRedirect('login', 21, fresh, false, false, 'keyCard')).toBe('/key-card-system-init');
    expect(gateEntryRedirect('systemInit', 21, initialised, false, false, 'keyCard')).toBe('/key-card-swipe-master-card-gm');
    expect(gateEntryRedirect('superAdminCard', 21, initialised, true, false, 'keyCard')).toBe('/key-card-swiper-sys-secret');
    expect(gateEntryRedirect('login', 21, keyed, true, false, 'keyCard')).toBe('/key-card-create-superuser');
    expect(gateEntryRedirect('login', 21, { ...done, hasSecret: false }, false, false, 'keyCard')).toBe('/re-swipe-sys-sceret');
  });

  it('reading the key card again returns to the sign-in screen it came from, never elsewhere', () => {
    expect(afterKeyReload('/key-card-swipe-login')).toBe('/key-card-swipe-login');
    expect(afterKeyReload('/pwd-swipe-login')).toBe('/pwd-swipe-login');
    expect(afterKeyReload('https://evil.example/')).toBe('/swipe-login');
    expect(afterKeyReload(null)).toBe('/swipe-login');
  });
});
