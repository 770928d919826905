/**
 * What a sub-app's build and the shell agree on (the shell lends these, the SDK's Vite plugin builds against them;
 * @campus/contracts re-exports them for the shell and the server).
 *
 * The shell lends its React to the sub-apps it mounts, on one window property, so a sub-app built with React as an
 * external neither downloads nor evaluates its own React inside the loader's sandbox (about 200 KB of code run
 * through the sandbox's proxy on every first mount). The keys are the import specifiers a sub-app's code uses; the
 * values are the property of the lent object that holds that module: a sub-app build maps each specifier to
 * `campusSharedLibraries.<property>`.
 */
export const sharedLibrariesGlobal = 'campusSharedLibraries';

export const sharedLibraryProperties = {
  react: 'react',
  'react/jsx-runtime': 'jsxRuntime',
  'react-dom': 'reactDom',
  'react-dom/client': 'reactDomClient',
} as const;

export type SharedLibrarySpecifier = keyof typeof sharedLibraryProperties;

/** The React major the shell lends: a sub-app built against another one bundles its own React instead. */
export const sharedReactMajor = 19;

/**
 * The attribute of a sub-app's entry script (in its index.html) naming the window global that holds its lifecycles:
 * the shell has its loader read that global, whatever other globals the bundle's libraries set after it.
 */
export const lifecyclesGlobalAttribute = 'data-lifecycles-global';

/** Every sub-app entry folder holds this file; the shell reports its contents with ReportVersion. */
export const reportVersionFileName = 'report-version.json';

/** The contents of a report-version file. */
export interface ReportVersionFile {
  /** 1 to 64 characters: letters, digits, '.', '_', '-'. */
  serviceName: string;
  /** 1 to 64 characters: letters, digits, '.', '_', '-', '+'. */
  version: string;
}

/** What the server accepts as a report-version file's serviceName and version (spec §7 ReportVersion). */
export const reportServiceNamePattern = '^[A-Za-z0-9._-]{1,64}$';
export const reportVersionPattern = '^[A-Za-z0-9._+-]{1,64}$';
