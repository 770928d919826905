import { describe, expect, it } from 'vitest';
import enUS from './en-US.json';
import zhCN from './zh-CN.json';
import zhMO from './zh-MO.json';
import { createTranslator } from '../lib/translator.ts';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

const files = { 'en-US': flatten(enUS), 'zh-CN': flatten(zhCN), 'zh-MO': flatten(zhMO) };

/**
 * Simplified-only characters: each has a different Traditional form (们→們, 这→這, …). Characters shared
 * by both scripts (户, 台, 用, 名 …) are deliberately absent.
 */
const simplifiedOnly = [
  ...'们这个说为时国会对发来经过还没进关让录码证账与专业东两严乐习书买乱云亚产亲仅从价众优传体余侧储儿兴养册军农冲决况净准减几击则刚创删别剧动务劳势区医华单卖卫却厂厅历压县参双变号吗听启员响问团园围图圆场块坏处备复头夺奖学宁实宝审宽寻导将层岁币师带帮广应库开异张弹归忆态总恶惊惯战执扩扫扬护报担择挂换据数断无旧显术机杀杂权条极构标样树档检欢气汇汉测济浏涨温湾满灭灯灵点热爱状独环现电画盘监礼离种积称稳笔类红约级纪线组细终结给统继续维网联声职脑节获见观规视览觉计认讨训议记讲许设访识诉词试话询该详语误请读谁调谢负财败货质购费资车转轮软载较辑输边达运远连选递遗邮释钟钥铁链销锁错键长门闭间闻队阶际陆险随隐难页项顺须预领频题额风马验',
];

describe('locales', () => {
  it('the three files have the same keys', () => {
    const reference = [...files['zh-CN'].keys()].sort();
    expect([...files['en-US'].keys()].sort()).toEqual(reference);
    expect([...files['zh-MO'].keys()].sort()).toEqual(reference);
  });

  it('no value is empty', () => {
    for (const [language, entries] of Object.entries(files)) {
      for (const [key, value] of entries) expect(value.trim(), `${language} ${key}`).not.toBe('');
    }
  });

  it('the list of Simplified-only characters is long enough to mean something', () => {
    expect(new Set(simplifiedOnly).size).toBeGreaterThanOrEqual(150);
  });

  it('zh-MO holds no Simplified-only characters', () => {
    const found: string[] = [];
    for (const [key, value] of files['zh-MO']) {
      for (const character of value) if (simplifiedOnly.includes(character)) found.push(`${key}: ${character}`);
    }
    expect(found).toEqual([]);
  });

  it('the check would catch Simplified text (zh-CN uses listed characters)', () => {
    const text = [...files['zh-CN'].values()].join('');
    expect([...text].some((character) => simplifiedOnly.includes(character))).toBe(true);
  });

  it('interpolation placeholders match across languages', () => {
    const placeholders = (text: string) => (text.match(/\{\{\s*\w+\s*\}\}/g) ?? []).sort().join(',');
    for (const [key, value] of files['zh-CN']) {
      expect(placeholders(files['en-US'].get(key) ?? ''), key).toBe(placeholders(value));
      expect(placeholders(files['zh-MO'].get(key) ?? ''), key).toBe(placeholders(value));
    }
  });
});

describe('the count texts of the tables and lists (issue 48, item 15)', () => {
  const i18n = createTranslator({ language: 'en-US', fallbackLanguage: 'zh-CN', supportedLanguages: ['en-US', 'zh-CN', 'zh-MO'] });
  i18n.addResourceBundle('en-US', 'translation', enUS);
  i18n.addResourceBundle('zh-CN', 'translation', zhCN);
  i18n.addResourceBundle('zh-MO', 'translation', zhMO);
  const say = (key: string, count: number, lng: string) => i18n.t(key, { count, lng });

  it('say one thing in the singular and more in the plural in en-US', () => {
    expect(say('licence.total', 1, 'en-US')).toBe('1 record in total');
    expect(say('licence.total', 2, 'en-US')).toBe('2 records in total');
    expect(say('backupLog.total', 1, 'en-US')).toBe('1 record in total');
    expect(say('backupLog.total', 0, 'en-US')).toBe('0 records in total');
    expect(say('cardManagement.total', 1, 'en-US')).toBe('1 card');
    expect(say('cardManagement.total', 40, 'en-US')).toBe('40 cards');
    expect(say('about.versionTotal', 1, 'en-US')).toBe('1 program in total');
    expect(say('about.versionTotal', 3, 'en-US')).toBe('3 programs in total');
  });

  it('fill the number in zh-CN and zh-MO, which have one form', () => {
    expect(say('licence.total', 1, 'zh-CN')).toBe('共 1 条记录');
    expect(say('licence.total', 1, 'zh-MO')).toBe('共 1 筆記錄');
    expect(say('cardManagement.total', 7, 'zh-MO')).toBe('共 7 張卡');
  });
});
