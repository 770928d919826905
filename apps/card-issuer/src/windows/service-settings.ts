// settings.txt in the service's data folder: the issuer's environment variables (docs/operator-pc.md "What the PC needs") as NAME=value
// lines, read at every start of the issuer, so an operator edits them with Notepad and restarts the service.

/** The variables settings.txt may set: the issuer's own; the data folder is the service's and not among them. */
const settable = /^CARD_(ISSUER_(ALLOWED_ORIGINS|PORT|DOCS|DEMO_MOTHER|LANG)|READER|READER_NAME|FILE_ID)$/;

export interface ParsedSettings {
  env: Record<string, string>;
  problems: { line: number; problem: string }[];
}

export function parseSettings(text: string): ParsedSettings {
  const env: Record<string, string> = {};
  const problems: ParsedSettings['problems'] = [];
  text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .forEach((raw, index) => {
      const line = raw.trim();
      if (line === '' || line.startsWith('#') || line.startsWith(';')) return;
      const equals = line.indexOf('=');
      if (equals <= 0) {
        problems.push({ line: index + 1, problem: 'not NAME=value' });
        return;
      }
      const name = line.slice(0, equals).trim().toUpperCase();
      if (!settable.test(name)) {
        problems.push({ line: index + 1, problem: `${name} is not a setting of the issuer` });
        return;
      }
      env[name] = line.slice(equals + 1).trim();
    });
  return { env, problems };
}

/** The first settings.txt: the issuer's variables set in the installer's console, and the others as comments. */
export function settingsFile(env: Record<string, string | undefined>): string {
  const names = ['CARD_ISSUER_ALLOWED_ORIGINS', 'CARD_READER', 'CARD_READER_NAME', 'CARD_FILE_ID', 'CARD_ISSUER_PORT', 'CARD_ISSUER_LANG'];
  const examples: Record<string, string> = {
    CARD_ISSUER_ALLOWED_ORIGINS: 'https://campus.example.com',
    CARD_READER: 'pcsc',
    CARD_READER_NAME: 'the start of the reader name',
    CARD_FILE_ID: '0101',
    CARD_ISSUER_PORT: '18085',
    CARD_ISSUER_LANG: 'zh-CN',
  };
  const lines = names.map((name) => (env[name]?.trim() ? `${name}=${env[name]!.trim()}` : `# ${name}=${examples[name]}`));
  return [
    '# Card issuer service settings (README.txt "Settings"): NAME=value, one a line; # starts a comment.',
    '# 发卡服务设置 / 發卡服務設定. Restart the service after a change: sc stop CampusCardIssuer, then sc start CampusCardIssuer.',
    ...lines,
    '',
  ].join('\r\n');
}
