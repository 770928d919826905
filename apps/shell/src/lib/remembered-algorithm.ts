import type { MappingAlgorithm } from 'antd';
import { rememberedTheme } from './storage.ts';

/**
 * `algorithm` (antd's theme derivation: the whole palette of every colour from the seed tokens) with its last
 * answer kept in the browser (one entry: the browser's only skin in practice). Deriving it was most of the longest
 * task of the layout's first render on a phone (about 55 ms of 115 at a mid-range phone's speed, issue 27); it
 * depends on nothing but the seed tokens and antd's version, so a page load that has seen this seed before takes
 * the answer as it was. Storage that is full, disabled or holds something else only means deriving it again.
 */
export function rememberedAlgorithm(algorithm: MappingAlgorithm, version: string): MappingAlgorithm {
  return (seedToken, mapToken) => {
    // a second algorithm in a list passes the first one's answer: not a case the shell has, so not remembered
    if (mapToken) return algorithm(seedToken, mapToken);
    const seed = `${version} ${JSON.stringify(seedToken)}`;
    const kept = rememberedTheme.get<ReturnType<MappingAlgorithm>>();
    if (kept?.seed === seed && kept.tokens && typeof kept.tokens === 'object') return kept.tokens;
    const tokens = algorithm(seedToken);
    rememberedTheme.set({ seed, tokens });
    return tokens;
  };
}
