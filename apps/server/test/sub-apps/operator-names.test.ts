import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { ToolsService } from '../../src/modules/tools/tools-service.ts';
import { tempDir } from '../support/helpers.ts';

// Issue 46 item 11: what an operator writes for others to read holds no control or format character, no markup.
describe('names an operator gives', () => {
  it('tools.json: a name or use that holds a control or format character or markup is not shown', async () => {
    const dataDir = tempDir('campus-tools-names-');
    fs.mkdirSync(path.join(dataDir, 'tools'));
    fs.writeFileSync(
      path.join(dataDir, 'tools', 'tools.json'),
      JSON.stringify([
        { showName: 'Invoice \u202Efdp.exe', use: '<img src=x onerror=alert(1)>', fileName: 'invoice.exe' },
        { showName: { 'en-US': 'Reader guide', 'zh-CN': '读卡器\u200B指南' }, use: { 'en-US': 'Set-up\u0085', 'zh-CN': '设置' }, fileName: 'reader.txt' },
      ]),
    );
    const tools = new ToolsService({ dataDir });
    expect((await tools.list('en-US')).map((t) => [t.showName, t.use])).toEqual([['invoice.exe', ''], ['Reader guide', '设置']]);
    expect((await tools.list('zh-CN')).map((t) => t.showName)).toEqual(['invoice.exe', 'Reader guide']);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('SUBAPP_HTTP_HOSTS takes host names only: no scheme, port or wildcard', () => {
    expect(loadConfig({ SUBAPP_HTTP_HOSTS: 'Orders.Intranet, 10.0.0.8' }).subAppHttpHosts).toEqual(['orders.intranet', '10.0.0.8']);
    expect(loadConfig({}).subAppHttpHosts).toEqual([]);
    for (const bad of ['*', '*.intranet', 'http://orders.intranet', 'orders.intranet:8080', 'a b']) {
      expect(() => loadConfig({ SUBAPP_HTTP_HOSTS: bad }), bad).toThrow(/SUBAPP_HTTP_HOSTS must be host names/);
    }
  });
});
