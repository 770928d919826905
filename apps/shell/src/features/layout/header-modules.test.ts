import { describe, expect, it } from 'vitest';
import { headerModuleCount, initialWidth, splitModules, trackWidth } from './header-modules.ts';

describe('header module count: floor((width − 520) / 96) − 1', () => {
  it.each([
    [1000, 4],
    [1001, 4],
    [1095, 4],
    [1096, 5],
    [1280, 6],
    [1366, 7],
    [1920, 13],
    [2560, 20],
  ])('at %i px shows %i modules', (width, count) => {
    expect(headerModuleCount(width)).toBe(count);
  });

  it('never goes below zero', () => {
    expect(headerModuleCount(520)).toBe(0);
    expect(headerModuleCount(300)).toBe(0);
  });
});

describe('tracked width', () => {
  it('follows resizes only above 1000', () => {
    expect(trackWidth(1280, 1500)).toBe(1500);
    expect(trackWidth(1280, 1001)).toBe(1001);
    expect(trackWidth(1280, 1000)).toBe(1280);
    expect(trackWidth(1280, 640)).toBe(1280);
  });

  it('starts at the window width above 1000, else at 1000', () => {
    expect(initialWidth(1920)).toBe(1920);
    expect(initialWidth(1000)).toBe(1000);
    expect(initialWidth(375)).toBe(1000);
  });
});

describe('splitModules', () => {
  const systems = ['qy', 'xt', 'mj', 'kq', 'xf'];
  it('keeps the order and puts the rest under More', () => {
    expect(splitModules(systems, 3)).toEqual({ shown: ['qy', 'xt', 'mj'], more: ['kq', 'xf'] });
  });
  it('has nothing under More when everything fits', () => {
    expect(splitModules(systems, 13)).toEqual({ shown: systems, more: [] });
  });
});
