import { Type } from 'typebox';
import { subAppFolderPattern, subAppManifestRules as rules } from '@campus/contracts';

/** The request and reply schemas of the sub-system registration calls, shared by the routes and the CLI. */

/** No control characters. */
const textPattern = '^[^\\u0000-\\u001f\\u007f]+$';
const LabelSchema = (what: string) =>
  Type.Object(
    {
      'en-US': Type.String({ minLength: 1, maxLength: rules.labelMaxLength, pattern: textPattern }),
      'zh-CN': Type.String({ minLength: 1, maxLength: rules.labelMaxLength, pattern: textPattern }),
      'zh-MO': Type.String({ minLength: 1, maxLength: rules.labelMaxLength, pattern: textPattern }),
    },
    { description: `${what} in the three languages of the shell, 1 to ${rules.labelMaxLength} characters each` },
  );
export const FunctionCodes = Type.Array(Type.String({ pattern: rules.functionCodePattern }), { maxItems: rules.maxFunctionCodes });
export const AppNoSchema = Type.String({ pattern: rules.appNoPattern, description: 'System code: 2 to 16 lowercase letters and digits, starting with a letter' });

export const ManifestSchema = Type.Object({
  appNo: AppNoSchema,
  label: LabelSchema("The system's name in the header"),
  basePath: Type.String({ pattern: subAppFolderPattern, maxLength: 64, description: 'Base path without slashes (`ext`, `partner/visits`): its pages live under /{basePath}/' }),
  entry: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: "Folder of the entry's index.html, ending in '/': an http(s) URL or a path on this server (default /subapps/{basePath}/)" })),
  scriptOrigins: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: rules.maxScriptOrigins, description: "Further origins (https://cdn.example.com) its scripts, styles and calls come from; the entry's origin is allowed anyway" })),
  functionCodes: Type.Optional(FunctionCodes),
  pages: Type.Array(
    Type.Object({
      id: Type.String({ pattern: rules.pageIdPattern }),
      parentId: Type.Optional(Type.String({ pattern: rules.pageIdPattern })),
      path: Type.String({ maxLength: rules.pathMaxLength, description: "'' for a group; else a path under /{basePath}/" }),
      name: Type.String({ pattern: rules.pageNamePattern }),
      title: LabelSchema("The page's menu title"),
      funcRightPerms: Type.Optional(FunctionCodes),
    }),
    { minItems: 1, maxItems: rules.maxPages },
  ),
  replace: Type.Optional(Type.Boolean({ description: 'Replace the registration of the same appNo (a new version)' })),
});

export const RegistrationSchema = Type.Object({
  appNo: Type.String(),
  label: Type.Object({ 'en-US': Type.String(), 'zh-CN': Type.String(), 'zh-MO': Type.String() }),
  basePath: Type.String(),
  entry: Type.String(),
  scriptOrigins: Type.Array(Type.String()),
  functionCodes: Type.Array(Type.String()),
  pageCount: Type.Integer(),
  registeredAt: Type.Number({ description: 'Epoch ms' }),
  registeredBy: Type.String(),
});

