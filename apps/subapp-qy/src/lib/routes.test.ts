import { describe, expect, it } from 'vitest';
import { belongsToApp, pageFor } from './routes.ts';

describe('routes', () => {
  it('maps the two pages, with or without a trailing slash', () => {
    expect(pageFor('/qy/homePage')).toBe('home');
    expect(pageFor('/qy/homePage/')).toBe('home');
    expect(pageFor('/qy/operate-log')).toBe('operate-log');
  });

  it('anything else is unknown', () => {
    expect(pageFor('/qy/')).toBe('unknown');
    expect(pageFor('/qy/homepage')).toBe('unknown');
    expect(pageFor('/qy/operate-log/2')).toBe('unknown');
    expect(pageFor('/')).toBe('unknown');
  });

  it('knows which paths belong to the app', () => {
    expect(belongsToApp('/qy/anything', '/qy/')).toBe(true);
    expect(belongsToApp('/qy', '/qy/')).toBe(true);
    expect(belongsToApp('/qyx/a', '/qy/')).toBe(false);
    expect(belongsToApp('/kq/page', '/qy/')).toBe(false);
    expect(belongsToApp('/xt/page', '/xt/')).toBe(true);
  });
});
