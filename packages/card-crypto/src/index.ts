export * from './sm.ts';
export * from './keys.ts';
export * from './card-image.ts';
