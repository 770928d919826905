import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseReportVersionFile, reportVersions, versionAddress } from './report-versions.ts';
import { http } from '../../lib/request.ts';
import type { SubAppDefinition } from '../../lib/sub-apps.ts';

describe('report versions', () => {
  afterEach(() => vi.restoreAllMocks());

  it('reports an address with its port (6300 by default) and a domain name as it is', () => {
    expect(versionAddress(new URL('http://192.168.1.20/'))).toBe('192.168.1.20:6300');
    expect(versionAddress(new URL('http://192.168.1.20:8080/home'))).toBe('192.168.1.20:8080');
    expect(versionAddress(new URL('http://localhost:6391/'))).toBe('localhost:6391');
    expect(versionAddress(new URL('http://[::1]:6391/'))).toBe('[::1]:6391');
    expect(versionAddress(new URL('https://campus.example.com/qy/homePage'))).toBe('campus.example.com');
  });

  it('accepts only report-version files in the agreed format', () => {
    expect(parseReportVersionFile({ serviceName: 'subapp-qy', version: '1.0.0+build.7' })).toEqual({ serviceName: 'subapp-qy', version: '1.0.0+build.7' });
    expect(parseReportVersionFile({ serviceName: '<b>x</b>', version: '1' })).toBeNull();
    expect(parseReportVersionFile({ serviceName: 'a' })).toBeNull();
    expect(parseReportVersionFile('1.0.0')).toBeNull();
    expect(parseReportVersionFile(null)).toBeNull();
  });

  it('asks every folder and the device folder, and reports the shell with the files it found', async () => {
    const asked: string[] = [];
    vi.stubGlobal('fetch', async (url: URL) => {
      asked.push(url.pathname);
      if (url.pathname === '/subapps/qy/report-version.json') return new Response(JSON.stringify({ serviceName: 'subapp-qy', version: '1.2.3' }));
      if (url.pathname === '/subapps/kq/report-version.json') return new Response('<html>not json</html>');
      return new Response('missing', { status: 404 });
    });
    const posted: unknown[] = [];
    const adapter = http.defaults.adapter;
    http.defaults.adapter = async (config) => {
      posted.push({ url: config.url, body: JSON.parse(String(config.data)) });
      return { data: { code: 0, msg: 'ok', data: null }, status: 200, statusText: 'OK', headers: {}, config };
    };
    const apps: SubAppDefinition[] = [
      { name: 'qy', entry: '/subapps/qy/', basePath: '/qy/', appNos: ['qy', 'xt'], installed: true },
      { name: 'kq', entry: '/subapps/kq/', basePath: '/kq/', appNos: ['kq'], installed: true },
      { name: 'mj', entry: '/subapps/mj/', basePath: '/mj/', appNos: ['mj'], installed: false },
    ];
    const versions = await reportVersions(apps, new URL('http://10.0.0.5/qy/homePage'));
    expect(asked.sort()).toEqual(['/subapps/device/report-version.json', '/subapps/kq/report-version.json', '/subapps/qy/report-version.json']);
    expect(versions).toEqual([
      { address: '10.0.0.5:6300', serviceName: 'main-front', version: '3.5.7.24112701' },
      { address: '10.0.0.5:6300', serviceName: 'subapp-qy', version: '1.2.3' },
    ]);
    expect(posted).toEqual([{ url: '/common-service/api/Version/ReportVersion', body: { versions } }]);
    http.defaults.adapter = adapter;
  });
});
