import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiPaths, shellVersion } from '@campus/contracts';
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

  it('asks the folders the server says hold a file and the sub-apps on other servers, and reports the shell with the files it found', async () => {
    const asked: string[] = [];
    vi.stubGlobal('fetch', async (url: URL) => {
      asked.push(url.href);
      if (url.pathname === '/subapps/qy/report-version.json') return new Response(JSON.stringify({ serviceName: 'subapp-qy', version: '1.2.3' }));
      if (url.pathname === '/subapps/kq/report-version.json') return new Response('<html>not json</html>');
      if (url.href === 'https://door.example.com/build/report-version.json') return new Response(JSON.stringify({ serviceName: 'mj-door', version: '5.0.0' }));
      return new Response('missing', { status: 404 });
    });
    const calls: unknown[] = [];
    const transport = http.transport;
    http.transport = async (config) => {
      calls.push({ method: config.method, url: config.url, body: config.data === undefined ? undefined : JSON.parse(String(config.data)) });
      // no device service on this server: its folder is not among those holding a file
      // a release's server names its build (issue 48 item 3): the shell reports that build, not only its release line
      const data = config.url === '/common-service/api/Version/ReportFolders' ? ['qy', 'kq'] : config.url === apiPaths.versionCheck ? { mjSystem: 1, version: `${shellVersion}+20261202.da68028` } : null;
      return { data: { code: 0, msg: 'ok', data }, status: 200 };
    };
    const apps: SubAppDefinition[] = [
      { name: 'qy', entry: '/subapps/qy/', basePath: '/qy/', appNos: ['qy', 'xt'], installed: true },
      { name: 'kq', entry: '/subapps/kq/', basePath: '/kq/', appNos: ['kq'], installed: true },
      { name: 'mj', entry: 'https://door.example.com/build/', basePath: '/mj/', appNos: ['mj'], installed: true },
      { name: 'tk', entry: '/subapps/tk/', basePath: '/tk/', appNos: ['tk'], installed: false },
    ];
    const versions = await reportVersions(apps, new URL('http://10.0.0.5/qy/homePage'));
    expect(asked.sort()).toEqual(['http://10.0.0.5/subapps/kq/report-version.json', 'http://10.0.0.5/subapps/qy/report-version.json', 'https://door.example.com/build/report-version.json']);
    expect(versions).toEqual([
      { address: '10.0.0.5:6300', serviceName: 'main-front', version: `${shellVersion}+20261202.da68028` },
      { address: '10.0.0.5:6300', serviceName: 'subapp-qy', version: '1.2.3' },
      { address: 'door.example.com', serviceName: 'mj-door', version: '5.0.0' },
    ]);
    expect(calls).toEqual([
      { method: 'get', url: '/common-service/api/Version/ReportFolders', body: undefined },
      { method: 'get', url: apiPaths.versionCheck, body: undefined },
      { method: 'post', url: '/common-service/api/Version/ReportVersion', body: { versions } },
    ]);
    http.transport = transport;
  });

  it('asks nothing of this server when it cannot say which folders hold a file, and still reports the shell', async () => {
    const asked: string[] = [];
    vi.stubGlobal('fetch', async (url: URL) => {
      asked.push(url.href);
      return new Response('missing', { status: 404 });
    });
    const transport = http.transport;
    http.transport = async (config) => {
      if (config.url === '/common-service/api/Version/ReportFolders') return { data: { code: 192, msg: 'licence required', data: null }, status: 200 };
      return { data: { code: 0, msg: 'ok', data: null }, status: 200 };
    };
    const versions = await reportVersions([{ name: 'qy', entry: '/subapps/qy/', basePath: '/qy/', appNos: ['qy'], installed: true }], new URL('http://10.0.0.5/qy/homePage'));
    expect(asked).toEqual([]);
    expect(versions).toEqual([{ address: '10.0.0.5:6300', serviceName: 'main-front', version: shellVersion }]);
    http.transport = transport;
  });
});
