import type { Plugin } from 'vite';

/** The components of @ant-design/icons that draw every icon (the full one and the one each icon file uses). */
const iconComponent = /@ant-design[\\/]icons[\\/](es|lib)[\\/]components[\\/]AntdIcon(Light)?\.js$/;
/** Where it names each icon after its English file name ("plus", "left", "home") as an image. */
const englishName = /role:\s*"img",\s*"aria-label":\s*icon\.name/;
const labelled = '(restProps["aria-label"] || restProps["aria-labelledby"])';

/**
 * Every antd icon is decoration unless whoever draws it names it: @ant-design/icons gives each one role="img" and
 * its English name, so a button reads "plus Add Authorization" and "left" in every language (issue 27, item 9).
 * The controls that show only an icon carry their own translated aria-label. The build stops when the icon
 * component no longer has the expected shape (a new @ant-design/icons), rather than ship the English names again.
 */
export function decorativeIcons(): Plugin {
  return {
    name: 'campus-decorative-icons',
    enforce: 'pre',
    transform(code, id) {
      if (!iconComponent.test(id.split('?')[0] ?? id)) return null;
      if (!englishName.test(code)) this.error(`${id}: the icon component changed; decorative-icons.ts must learn its new shape`);
      return { code: code.replace(englishName, `role: ${labelled} ? "img" : undefined, "aria-hidden": ${labelled} ? undefined : true`), map: null };
    },
  };
}
