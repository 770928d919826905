// What a sub-app's build and the shell agree on (the React the shell lends): the SDK owns it, see
// packages/subapp-sdk/src/shared-libraries.ts.
export { lifecyclesGlobalAttribute, sharedLibrariesGlobal, sharedLibraryProperties, sharedReactMajor, type SharedLibrarySpecifier } from '@campus/subapp-sdk/shared-libraries';
