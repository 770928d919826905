export * from './sm.ts';
export * from './sm2-key.ts';
export * from './keys.ts';
export * from './card-image.ts';
