import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiPaths } from '@campus/contracts';
import * as storage from './storage.ts';
import { prefetchLayoutData, takeEarly, takeEarlyCall } from './layout-data.ts';
import { installFakeApi, type SeenCall } from '../../test/fake-api.ts';

let seen: SeenCall[];
let userAnswer: { data: unknown } | { status: number };
let registryAnswer: Promise<{ data: unknown }> | { data: unknown };

beforeEach(() => {
  userAnswer = { data: { id: 'u1', name: 'Staff' } };
  registryAnswer = { data: [] };
  seen = installFakeApi({
    [apiPaths.userDetail]: () => userAnswer,
    [apiPaths.systemLogos]: () => ({ data: [{ code: '1001', systemName: 'Campus', systemLogo: '' }] }),
    [apiPaths.subAppRegistry]: () => registryAnswer,
  });
  storage.accessToken.set('token-a');
});

afterEach(() => {
  localStorage.clear();
});

describe('what the layout shows besides the menus, fetched beside them', () => {
  it('asks in the language given and hands each answer over once', async () => {
    await prefetchLayoutData('en-US');
    expect(seen.map((call) => [call.url, call.config.headers.get('language')])).toEqual([
      [apiPaths.userDetail, 'en-US'],
      [apiPaths.systemLogos, 'en-US'],
      [apiPaths.subAppRegistry, 'en-US'],
    ]);
    expect(takeEarly('user-detail', 'zh-CN')).toBeUndefined();
    expect(takeEarly('user-detail', 'en-US')).toEqual({ id: 'u1', name: 'Staff' });
    expect(takeEarly('user-detail', 'en-US')).toBeUndefined();
    expect(takeEarly('sub-app-registry', 'en-US')).toEqual([]);
  });

  it('never hands one session’s answer to another', async () => {
    await prefetchLayoutData('en-US');
    storage.accessToken.set('token-b');
    expect(takeEarly('user-detail', 'en-US')).toBeUndefined();
    expect(takeEarly('system-logos', 'en-US')).toBeUndefined();
  });

  it('leaves a failed call to the layout, which asks again and says what went wrong', async () => {
    userAnswer = { status: 500 };
    await expect(prefetchLayoutData('zh-CN')).resolves.toBeUndefined();
    expect(takeEarly('user-detail', 'zh-CN')).toBeUndefined();
    expect(takeEarly('system-logos', 'zh-CN')).toEqual([{ code: '1001', systemName: 'Campus', systemLogo: '' }]);
  });

  it('does not wait for the sub-apps, which are used after the first paint, and hands their call over', async () => {
    let answer: (value: { data: unknown }) => void = () => undefined;
    registryAnswer = new Promise((resolve) => {
      answer = resolve;
    });
    await prefetchLayoutData('en-US');
    expect(takeEarly('user-detail', 'en-US')).toEqual({ id: 'u1', name: 'Staff' });
    expect(takeEarly('sub-app-registry', 'en-US')).toBeUndefined();
    const call = takeEarlyCall('sub-app-registry', 'en-US');
    expect(call).toBeInstanceOf(Promise);
    expect(takeEarlyCall('sub-app-registry', 'en-US')).toBeUndefined();
    answer({ data: [{ name: 'qy' }] });
    await expect(call).resolves.toEqual([{ name: 'qy' }]);
    // taken as a call, it is not handed over a second time as an answer
    expect(takeEarly('sub-app-registry', 'en-US')).toBeUndefined();
    expect(seen.filter((seenCall) => seenCall.url === apiPaths.subAppRegistry)).toHaveLength(1);
  });

  it('keeps a registry answer that came before the layout asked, for its first render', async () => {
    await prefetchLayoutData('en-US');
    await Promise.resolve();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(takeEarlyCall('sub-app-registry', 'en-US')).toBeUndefined();
    expect(takeEarly('sub-app-registry', 'en-US')).toEqual([]);
  });
});
