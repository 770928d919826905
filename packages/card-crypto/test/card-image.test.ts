import { describe, expect, it } from 'vitest';
import { argon2id } from '@noble/hashes/argon2.js';
import {
  blankImage,
  buildAdminCard,
  buildSystemKeyCard,
  cardImageSize,
  CardTrustError,
  classifyCard,
  customerKey,
  customerKeyArgon2id,
  customerKeyCheck,
  initialiseMotherCard,
  makeMotherCard,
  openAdminCard,
  openMotherCard,
  openSystemKeyCard,
  readHeader,
  readMotherCard,
  recoverSystemKey,
  sm3Hex,
  sm4DecryptBlock,
  sm4EncryptBlock,
  verifyMotherCard,
} from '../src/index.ts';

const systemKey = Buffer.from('00112233445566778899aabbccddeeff', 'hex');
const otherKey = Buffer.from('ffeeddccbbaa99887766554433221100', 'hex');
const customerPwd = sm3Hex('Customer#2026');

function reason(work: () => unknown): string {
  try {
    work();
  } catch (error) {
    if (error instanceof CardTrustError) return error.reason;
    throw error;
  }
  return 'opened';
}

const admin = () => buildAdminCard({ systemKey, fixedNo: '04A1B2C3', customerNo: '10001', issueSeq: 1, oprtNo: 'sysadmin', cardNum: 7, tenantCode: '1001' });

describe('administrator login cards', () => {
  it('open with the system key on the card they were made for, and fit a 256-byte card', () => {
    const image = admin();
    expect(image.length).toBeLessThanOrEqual(cardImageSize);
    expect(classifyCard(image)).toBe('adminLogin');
    expect(openAdminCard(image, systemKey, '04a1b2c3')).toMatchObject({ oprtNo: 'sysadmin', cardNum: 7, tenantCode: '1001', header: { kind: 11, customerNo: '10001', issueSeq: 1 } });
    // padding after the image (the rest of the card) changes nothing
    expect(openAdminCard(Buffer.concat([image, Buffer.alloc(cardImageSize - image.length)]), systemKey, '04A1B2C3').oprtNo).toBe('sysadmin');
    // the operator number is not readable without the key
    expect(image.includes(Buffer.from('sysadmin'))).toBe(false);
  });

  it('a changed byte anywhere is tampered; a copy onto another card too; another installation is told apart', () => {
    const image = admin();
    for (let i = 24; i < image.length; i += 1) {
      const changed = Buffer.from(image);
      changed[i] = (changed[i] ?? 0) ^ 0x01;
      expect(reason(() => openAdminCard(changed, systemKey, '04A1B2C3')), `byte ${i}`).toBe('tampered');
    }
    const seq = Buffer.from(image);
    seq[21] = 2; // the issue number in the header is covered by the MAC too
    expect(reason(() => openAdminCard(seq, systemKey, '04A1B2C3'))).toBe('tampered');
    expect(reason(() => openAdminCard(image, systemKey, '04A1B2C4'))).toBe('tampered');
    expect(reason(() => openAdminCard(image, otherKey, '04A1B2C3'))).toBe('otherInstallation');
    expect(reason(() => openAdminCard(blankImage(), systemKey, '04A1B2C3'))).toBe('wrongType');
    expect(reason(() => openAdminCard(Buffer.from('not a card at all'), systemKey, '04A1B2C3'))).toBe('unknown');
  });

  it('refuse fields that do not fit', () => {
    expect(() => buildAdminCard({ systemKey, fixedNo: '04A1B2C3', customerNo: '10001', issueSeq: 1, oprtNo: 'x'.repeat(33), cardNum: 1, tenantCode: '1001' })).toThrow(/oprtNo/);
    expect(() => buildAdminCard({ systemKey, fixedNo: 'nothex', customerNo: '10001', issueSeq: 1, oprtNo: 'a', cardNum: 1, tenantCode: '1001' })).toThrow(/fixed number/);
    expect(() => buildAdminCard({ systemKey, fixedNo: '04A1B2C3', customerNo: '012', issueSeq: 1, oprtNo: 'a', cardNum: 1, tenantCode: '1001' })).toThrow(/customer number/);
  });
});

describe('mother cards and system key cards', () => {
  const vendorCard = () => makeMotherCard({ customerNo: '10001', customerPwdDigest: customerPwd, sysKeyCode: Buffer.alloc(16, 0xab), cardSalt: Buffer.alloc(16, 0x5a) });

  it('a new mother card names its customer and opens only with the right password', () => {
    const image = vendorCard();
    expect(classifyCard(image)).toBe('mother');
    expect(readMotherCard(image)).toMatchObject({ customerNo: '10001', sysKeyCode: 'ab'.repeat(16), initialised: false, proof: '' });
    expect(openMotherCard(image, customerPwd).customerKey).toHaveLength(16);
    expect(reason(() => openMotherCard(image, sm3Hex('Wrong#2026')))).toBe('passwordWrong');
  });

  it('initialisation seals the system key on it; the server verifies it later; a second initialisation is refused', () => {
    const { image, recovery } = initialiseMotherCard(vendorCard(), 'E0040150', customerPwd, systemKey);
    const card = verifyMotherCard(image, 'E0040150', systemKey);
    expect(card.initialised).toBe(true);
    expect(card.proof).toMatch(/^[0-9a-f]{64}$/);
    expect(reason(() => verifyMotherCard(image, 'E0040151', systemKey))).toBe('tampered');
    expect(reason(() => verifyMotherCard(image, 'E0040150', otherKey))).toBe('otherInstallation');
    expect(reason(() => verifyMotherCard(vendorCard(), 'E0040150', systemKey))).toBe('notInitialised');
    expect(reason(() => initialiseMotherCard(image, 'E0040150', customerPwd, otherKey))).toBe('alreadyInitialised');
    expect(reason(() => initialiseMotherCard(vendorCard(), 'E0040150', sm3Hex('Wrong#2026'), systemKey))).toBe('passwordWrong');
    expect(recovery.motherFixedNo).toBe('E0040150');
  });

  it('a system key card recovers the system key with the customer password, and only with it', () => {
    const { recovery } = initialiseMotherCard(vendorCard(), 'E0040150', customerPwd, systemKey);
    const keyCard = buildSystemKeyCard({ systemKey, fixedNo: '0A0B0C0D', customerNo: '10001', issueSeq: 1, recovery });
    expect(classifyCard(keyCard)).toBe('systemKey');
    expect(openSystemKeyCard(keyCard, systemKey, '0A0B0C0D').motherFixedNo).toBe('E0040150');
    expect(recoverSystemKey(keyCard, '0A0B0C0D', customerPwd).equals(systemKey)).toBe(true);
    expect(reason(() => recoverSystemKey(keyCard, '0A0B0C0D', sm3Hex('Wrong#2026')))).toBe('passwordWrong');
    expect(reason(() => recoverSystemKey(keyCard, '0A0B0C0E', customerPwd))).toBe('tampered');
    // the card alone does not hold the key in clear
    expect(keyCard.includes(systemKey)).toBe(false);
    expect(reason(() => openSystemKeyCard(admin(), systemKey, '04A1B2C3'))).toBe('wrongType');
  });
});

// issue 46 item 4: K_cust by argon2id, marked in the header's flags byte; the cards sealed before still read
describe('the customer key derivation', () => {
  const oldVendorCard = () => makeMotherCard({ customerNo: '10001', customerPwdDigest: customerPwd, sysKeyCode: Buffer.alloc(16, 0xab), cardSalt: Buffer.alloc(16, 0x5a), derivation: 'pbkdf2-sm3' });

  it('a new mother card is sealed with argon2id (flags bit 0), not with the 20,000 iterations of PBKDF2', () => {
    const image = makeMotherCard({ customerNo: '10001', customerPwdDigest: customerPwd, cardSalt: Buffer.alloc(16, 0x5a) });
    expect(image[5]).toBe(0x01);
    expect(readMotherCard(image).derivation).toBe('argon2id');
    const salt = Buffer.alloc(16, 0x5a);
    expect(readMotherCard(image).pwdCheck.equals(customerKeyCheck(customerKey('10001', customerPwd, salt, 'argon2id')))).toBe(true);
    expect(readMotherCard(image).pwdCheck.equals(customerKeyCheck(customerKey('10001', customerPwd, salt, 'pbkdf2-sm3')))).toBe(false);
    expect(openMotherCard(image, customerPwd).customerKey.equals(customerKey('10001', customerPwd, salt, 'argon2id'))).toBe(true);
  });

  it('the JavaScript argon2id of the issuer downloads gives the native one’s K_cust', () => {
    const salt = Buffer.alloc(16, 0x5a);
    const js = argon2id(customerPwd, Buffer.concat([Buffer.from('campus-mother-v210001', 'ascii'), salt]), { m: customerKeyArgon2id.memoryKiB, t: customerKeyArgon2id.passes, p: customerKeyArgon2id.lanes, dkLen: 16 });
    expect(Buffer.from(js).equals(customerKey('10001', customerPwd, salt, 'argon2id'))).toBe(true);
  });

  it('a mother card of before (flags 00) still opens, and its initialisation reseals it with argon2id', () => {
    const old = oldVendorCard();
    expect(old[5]).toBe(0x00);
    expect(readMotherCard(old).derivation).toBe('pbkdf2-sm3');
    expect(openMotherCard(old, customerPwd).customerKey).toHaveLength(16);
    expect(reason(() => openMotherCard(old, sm3Hex('Wrong#2026')))).toBe('passwordWrong');
    const { image, recovery } = initialiseMotherCard(old, 'E0040150', customerPwd, systemKey);
    expect(image[5]).toBe(0x01);
    expect(recovery.derivation).toBe('argon2id');
    const card = verifyMotherCard(image, 'E0040150', systemKey);
    expect(card.derivation).toBe('argon2id');
    const key = customerKey('10001', customerPwd, card.cardSalt, 'argon2id');
    expect(card.pwdCheck.equals(customerKeyCheck(key))).toBe(true);
    expect(sm4DecryptBlock(key, card.sealedSystemKey!).equals(systemKey)).toBe(true);
    // and the resealed card still opens with the customer password (its pwdCheck is the new one)
    expect(openMotherCard(image, customerPwd).customerKey.equals(key)).toBe(true);
  });

  it('a system key card says its derivation; one sealed the old way still recovers the key', () => {
    const salt = Buffer.alloc(16, 0x5a);
    const sealedOld = sm4EncryptBlock(customerKey('10001', customerPwd, salt, 'pbkdf2-sm3'), systemKey);
    const oldCard = buildSystemKeyCard({ systemKey, fixedNo: '0A0B0C0D', customerNo: '10001', issueSeq: 1, recovery: { sealedSystemKey: sealedOld, cardSalt: salt, motherFixedNo: 'E0040150', derivation: 'pbkdf2-sm3' } });
    expect(oldCard[5]).toBe(0x00);
    expect(recoverSystemKey(oldCard, '0A0B0C0D', customerPwd).equals(systemKey)).toBe(true);
    const { recovery } = initialiseMotherCard(oldVendorCard(), 'E0040150', customerPwd, systemKey);
    const newCard = buildSystemKeyCard({ systemKey, fixedNo: '0A0B0C0D', customerNo: '10001', issueSeq: 2, recovery });
    expect(newCard[5]).toBe(0x01);
    expect(readHeader(newCard)?.customerKeyDerivation).toBe('argon2id');
    expect(recoverSystemKey(newCard, '0A0B0C0D', customerPwd).equals(systemKey)).toBe(true);
    expect(reason(() => recoverSystemKey(newCard, '0A0B0C0D', sm3Hex('Wrong#2026')))).toBe('passwordWrong');
    // the flag is under the MAC: turned off, the card no longer opens with the password
    const flipped = Buffer.from(newCard);
    flipped[5] = 0;
    expect(reason(() => recoverSystemKey(flipped, '0A0B0C0D', customerPwd))).toBe('passwordWrong');
  });
});

describe('classifyCard', () => {
  it('tells blank, unknown and cut-short images apart', () => {
    expect(classifyCard(blankImage())).toBe('blank');
    expect(classifyCard(Buffer.alloc(256, 0xff))).toBe('blank');
    expect(classifyCard(Buffer.from('hello, a transit card'))).toBe('unknown');
    expect(classifyCard(admin().subarray(0, 60))).toBe('unknown');
    expect(readHeader(admin().subarray(0, 10))).toBeNull();
  });
});
