import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { expect, test, type Page } from '@playwright/test';
import { buildServeAndRegister, makeStarterApp, openStarterApp, starterView, type RegisteredStarterApp, type StarterApp } from '../support/team-sub-app.ts';
import { demo, signIn, switchLanguage } from '../support/sign-in.ts';

// Issue 48 item 16: a team that writes Vue. It makes the app with the starter from /tools (`--vue`), installs Vue
// and its tools from the npm registry, tests and builds it, serves it from its own server and the operator registers
// the manifest the starter wrote. The real shell finds its lifecycles (Vue's runtime sets window globals of its own
// after the bundle's), shows the user's name in the shell's language, and a throw while rendering shows the shell's
// failed page.

const folder = 'vue-orders';
const appNo = 'vueorders';
const label = 'Vue Orders';

test.describe('a Vue 3 sub-app made with the starter --vue', () => {
  test.describe.configure({ mode: 'serial' });
  let starter: StarterApp | undefined;
  let app: string;
  let registered: RegisteredStarterApp | undefined;

  test.beforeAll(async () => {
    test.setTimeout(300_000);
    starter = await makeStarterApp('vue-sub-app', folder, ['--vue']);
    app = starter.app;

    // the team's change: a part of the page that shows which Vue runs it and a button that breaks it while rendering
    writeFileSync(path.join(app, 'src/BrokenView.vue'), [
      '<script setup lang="ts">',
      "import { ref, version } from 'vue';",
      'const broken = ref(false);',
      'function shown(): string {',
      "  if (broken.value) throw new Error('vue-orders broke while rendering');",
      '  return `Vue ${version}`;',
      '}',
      '</script>',
      '',
      '<template>',
      '  <p class="vue-version">{{ shown() }} <button type="button" @click="broken = true">Break</button></p>',
      '</template>',
      '',
    ].join('\n'));
    const appFile = path.join(app, 'src/App.vue');
    const appSource = readFileSync(appFile, 'utf8');
    expect(appSource).toContain('</section>');
    expect(appSource).toContain("import { computed } from 'vue';");
    writeFileSync(appFile, appSource.replace("import { computed } from 'vue';", "import { computed } from 'vue';\nimport BrokenView from './BrokenView.vue';").replace('</section>', '  <BrokenView />\n  </section>'));

    registered = await buildServeAndRegister(starter, { appNo, label });
  });
  test.afterAll(async () => {
    await registered?.remove();
    starter?.discard();
  });

  const view = starterView;
  const openApp = (page: Page) => openStarterApp(page, appNo);

  test('mounts in the shell with the user’s name, follows a language switch, and leaves nothing behind', async ({ page }) => {
    const failures: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') failures.push(message.text());
    });
    await signIn(page, demo.sysadmin);
    await switchLanguage(page, 'en-US');
    await openApp(page);
    await expect(view(page).getByRole('heading', { level: 2 })).toHaveText(`Hello, ${demo.sysadmin.name}`);
    await expect(view(page).locator('.vue-version')).toContainText(/Vue 3\.5\./);
    await expect(view(page)).toHaveAttribute('lang', 'en-US');
    await switchLanguage(page, 'zh-MO');
    await expect(view(page).getByRole('heading', { level: 2 })).toHaveText(`${demo.sysadmin.name}，您好`);
    await expect(view(page)).toHaveAttribute('lang', 'zh-MO');
    expect(failures.filter((text) => text.includes('lifecycle'))).toEqual([]);

    // another page and back: one view, its global and Vue's kept off the shell's window
    await page.goBack();
    await expect(view(page)).toHaveCount(0);
    await page.goForward();
    await expect(view(page)).toHaveCount(1);
    expect(await page.evaluate(() => ['campusVueOrders', '__VUE_INSTANCE_SETTERS__', '__VUE_SSR_SETTERS__'].filter((name) => name in window))).toEqual([]);
  });

  test('a throw while rendering shows the shell’s failed page, naming the app and its version; Retry brings it back', async ({ page }) => {
    await signIn(page, demo.sysadmin);
    await switchLanguage(page, 'en-US');
    await openApp(page);
    await view(page).getByRole('button', { name: 'Break' }).click();
    await expect(page.getByRole('heading', { name: `${label} stopped working` })).toBeVisible();
    await expect(page.getByText(`${folder} 0.1.0 opened, then failed and has nothing to show.`)).toBeVisible();
    await expect(page.getByText('vue-orders broke while rendering')).toBeVisible();
    await expect(view(page)).toHaveCount(0);
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(view(page).locator('.vue-version')).toContainText(/Vue 3\.5\./);
  });

  // A bundle made by another tool does not set its global again at its end: the entry page naming the global is enough.
  test('a bundle that leaves Vue’s globals last still mounts: the shell reads the global its entry page names', async ({ page }) => {
    const bundleFile = path.join(app, 'dist', `${folder}.umd.js`);
    const bundle = readFileSync(bundleFile, 'utf8');
    // the plugin's footer, which the minifier may join to the bundle's last statement with a comma
    const footer = /[,;]?\(function ?\((\w+)\) ?\{ ?var \w+ ?= ?\1\.campusVueOrders;[\s\S]*$/;
    expect(bundle).toMatch(footer);
    const withoutFooter = `${bundle.replace(footer, '')};\n`;
    expect(withoutFooter).not.toMatch(/delete \w+\.campusVueOrders/);
    expect(() => new vm.Script(withoutFooter)).not.toThrow();
    writeFileSync(bundleFile, withoutFooter);
    expect(readFileSync(path.join(app, 'dist/index.html'), 'utf8')).toContain(`<script src="./${folder}.umd.js" entry data-lifecycles-global="campusVueOrders"></script>`);

    await signIn(page, demo.sysadmin);
    await switchLanguage(page, 'en-US');
    await openApp(page);
    await expect(view(page).getByRole('heading', { level: 2 })).toHaveText(`Hello, ${demo.sysadmin.name}`);
    await switchLanguage(page, 'zh-CN');
    await expect(view(page).getByRole('heading', { level: 2 })).toHaveText(`${demo.sysadmin.name}，您好`);
  });
});
