import { describe, expect, it } from 'vitest';
import { operationActions, operationResults } from '@campus/contracts';
import { flatten } from '../lib/i18n.ts';
import enUS from './en-US.json';
import zhCN from './zh-CN.json';
import zhMO from './zh-MO.json';

const files = { 'en-US': flatten(enUS), 'zh-CN': flatten(zhCN), 'zh-MO': flatten(zhMO) };

/** Simplified-only characters (each has a different Traditional form); the same list as the shell's locale test. */
const simplifiedOnly = [
  ...'们这个说为时国会对发来经过还没进关让录码证账与专业东两严乐习书买乱云亚产亲仅从价众优传体余侧储儿兴养册军农冲决况净准减几击则刚创删别剧动务劳势区医华单卖卫却厂厅历压县参双变号吗听启员响问团园围图圆场块坏处备复头夺奖学宁实宝审宽寻导将层岁币师带帮广应库开异张弹归忆态总恶惊惯战执扩扫扬护报担择挂换据数断无旧显术机杀杂权条极构标样树档检欢气汇汉测济浏涨温湾满灭灯灵点热爱状独环现电画盘监礼离种积称稳笔类红约级纪线组细终结给统继续维网联声职脑节获见观规视览觉计认讨训议记讲许设访识诉词试话询该详语误请读谁调谢负财败货质购费资车转轮软载较辑输边达运远连选递遗邮释钟钥铁链销锁错键长门闭间闻队阶际陆险随隐难页项顺须预领频题额风马验',
];

describe('sub-app dictionary', () => {
  it('the three languages have the same keys', () => {
    const reference = [...files['en-US'].keys()].sort();
    expect([...files['zh-CN'].keys()].sort()).toEqual(reference);
    expect([...files['zh-MO'].keys()].sort()).toEqual(reference);
  });

  it('no value is empty', () => {
    for (const [language, entries] of Object.entries(files)) {
      for (const [key, value] of entries) expect(value.trim(), `${language} ${key}`).not.toBe('');
    }
  });

  it('zh-MO holds no Simplified-only characters, and the check would catch zh-CN', () => {
    const found = [...files['zh-MO']].flatMap(([key, value]) => [...value].filter((c) => simplifiedOnly.includes(c)).map((c) => `${key}: ${c}`));
    expect(found).toEqual([]);
    expect([...[...files['zh-CN'].values()].join('')].some((c) => simplifiedOnly.includes(c))).toBe(true);
  });

  it('placeholders match across languages', () => {
    const placeholders = (text: string) => (text.match(/\{\{\s*\w+\s*\}\}/g) ?? []).sort().join(',');
    for (const [key, value] of files['en-US']) {
      expect(placeholders(files['zh-CN'].get(key) ?? ''), key).toBe(placeholders(value));
      expect(placeholders(files['zh-MO'].get(key) ?? ''), key).toBe(placeholders(value));
    }
  });

  it('every operation action and result of the contracts has a text', () => {
    for (const action of operationActions) expect(files['en-US'].has(`action.${action}`), action).toBe(true);
    for (const result of operationResults) expect(files['en-US'].has(`result.${result}`), result).toBe(true);
  });
});
