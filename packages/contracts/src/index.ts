export * from './api-paths.ts';
export * from './business-codes.ts';
export * from './dto.ts';
export * from './envelope.ts';
export * from './languages.ts';
export * from './national-crypto.ts';
export * from './shell-constants.ts';
