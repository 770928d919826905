import { Type } from 'typebox';
import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import { apiPaths, codes, licenceLimits, licencePaging, ossObjectUrl, shellVersion } from '@campus/contracts';
import type { LanguageCode, LicenceDetail, Localised, ProductImages, ProductInfo } from '@campus/contracts';
import type { App } from '../../http/types.ts';
import { AppError, InvalidRequest, envelope, failureReplies, languageHeaders, ok, tokenHeaders } from '../../http/envelope.ts';
import { sessionOf } from '../../http/auth-hook.ts';
import { acceptUploads, receiveFiles, UploadRefused, type UploadLimits } from '../../http/uploaded-files.ts';
import type { AccountService } from '../account/account-service.ts';
import { confirmOperatorPassword, refuseIfLocked } from '../account/operator-password.ts';
import type { OperatorPasswordDeps } from '../account/operator-password.ts';
import type { MenuService } from '../menu/menu-service.ts';
import { installationWide } from '../operation-log/operation-log-service.ts';
import type { LicenceActor, LicenceService } from './licence-service.ts';

export interface LicenceRouteDeps {
  licence: LicenceService;
  account: AccountService;
  menu: MenuService;
  /** For the trial's administrator password (counted in the lock-out like a sign-in). */
  operatorPassword: OperatorPasswordDeps;
  requireSession: onRequestHookHandler;
  /** OSS object ids of the product's logo and login background. */
  productImageIds: { logo: string; loginBg: string };
}

/** The product (spec §3 "Product info"); productName sets the login page's title. */
const productName: Localised = { 'en-US': 'Campus Management Platform', 'zh-CN': '智慧园区管理平台', 'zh-MO': '智慧園區管理平台' };
function productInfo(language: LanguageCode, logo: string): ProductInfo {
  return { productName: productName[language], productCode: 'campus-shell', productVer: shellVersion, copyRightYear: '2026', copyRightOwner: 'Campus Shell', productLogo: ossObjectUrl(logo) };
}

const nullableTime = Type.Union([Type.Integer(), Type.Null()]);
const appEdition = Type.Object({ appId: Type.String(), appName: Type.String(), editionName: Type.String(), beginTime: nullableTime, endTime: nullableTime, isHasWeb: Type.Boolean(), isHasMobile: Type.Boolean() });
const deviceLimit = Type.Object({ deviceName: Type.String(), count: Type.Integer(), beginTime: nullableTime, endTime: nullableTime, remarks: Type.String() });
const rowFields = {
  id: Type.String(),
  code: Type.String(),
  beginTime: nullableTime,
  endTime: nullableTime,
  activateTime: nullableTime,
  loseActivateTime: nullableTime,
  state: Type.Integer(),
  effectiveness: Type.Integer(),
  isFormal: Type.Boolean(),
  prdPkgCategory: Type.String(),
  empCount: Type.Integer(),
  isLimitDevice: Type.Boolean(),
  customerName: Type.String(),
  createTime: Type.Integer(),
};
const licenceRow = Type.Object(rowFields);
const licenceDetail = Type.Object({
  ...rowFields,
  isHasMobile: Type.Boolean(),
  isPermitOpenapi: Type.Boolean(),
  term: Type.Union([Type.Integer(), Type.Null()]),
  infos: Type.Array(appEdition),
  devices: Type.Array(deviceLimit),
});
const uploadResult = Type.Object({ fileName: Type.String(), ok: Type.Boolean(), id: Type.Union([Type.String(), Type.Null()]), code: Type.Union([Type.String(), Type.Null()]), msg: Type.String() });
const productInfoSchema = Type.Object({ productName: Type.String(), productCode: Type.String(), productVer: Type.String(), copyRightYear: Type.String(), copyRightOwner: Type.String(), productLogo: Type.String() });
const idText = Type.String({ minLength: 1, maxLength: 64 });

const uploadLimits: UploadLimits = { field: 'files', maxFiles: licenceLimits.maxFilesPerUpload, maxFileBytes: licenceLimits.maxFileBytes };
/** The bytes a licence upload may announce: every file at its limit, plus room for part headers. */
const uploadBodyLimit = licenceLimits.maxFilesPerUpload * licenceLimits.maxFileBytes + 64 * 1024;

/**
 * Licence calls (spec §7 "Licence, version and backup"). Who may call what:
 * - no session: GetSysInfos, GetProductImages, product info (the login page needs them);
 * - any session: GetLicensePermission (every user gets the prompt), customer info (About System);
 * - system administrators (403 otherwise): AppList, Search, GetDetail, GetOldDetail, GetLicenseDetail
 *   (isViewPermission is the administrator's, so details are theirs too);
 * - installation administrators (another system administrator: 281): upload, activate, trial. A licence is the
 *   installation's, for every tenant: what one tenant's administrator activates, every tenant runs on, and the
 *   installation has one trial (docs/installation-and-tenants.md). They are logged installation-wide.
 */
export function registerLicenceRoutes(app: App, deps: LicenceRouteDeps) {
  const { licence, account, requireSession } = deps;
  const requireAdmin = async (request: FastifyRequest) => {
    if (!(await account.isSystemAdmin(sessionOf(request).userId))) throw new AppError(codes.noPermission, { status: 403 });
  };
  const requireInstallationAdmin = async (request: FastifyRequest) => {
    const { userId } = sessionOf(request);
    if (!(await account.isSystemAdmin(userId))) throw new AppError(codes.noPermission, { status: 403 });
    if (!(await account.isInstallationAdmin(userId))) throw new AppError(codes.installationAdminRequired, { status: 403 });
  };
  const actorOf = (request: FastifyRequest): LicenceActor => {
    const session = sessionOf(request);
    return { tenantCode: installationWide, account: session.account, clientIp: request.ip };
  };
  const adminPost = { onRequest: [requireSession, requireAdmin] };
  const installationAdminPost = { onRequest: [requireSession, requireInstallationAdmin] };
  /**
   * A licence file names its applications in the vendor's words; the reader sees the catalogue's name in
   * their language (the file's name stays for an application the catalogue does not know).
   */
  const inLanguage = async <T extends LicenceDetail | null>(detail: T, language: LanguageCode): Promise<T> => {
    if (!detail) return detail;
    const names = new Map((await deps.menu.catalogueApps(language)).map((a) => [a.appId, a.appName]));
    return { ...detail, infos: detail.infos.map((info) => ({ ...info, appName: names.get(info.appId) ?? info.appName })) };
  };

  app.get(
    apiPaths.licencePermission,
    {
      onRequest: requireSession,
      schema: {
        tags: ['licence'],
        summary: 'Whether a licence is in effect and what the user may do about licences',
        headers: tokenHeaders,
        response: {
          200: envelope(
            Type.Object({
              isNormal: Type.Boolean(),
              isSystemAdmin: Type.Boolean(),
              isViewPermission: Type.Boolean(),
              isAddTrialPermission: Type.Boolean(),
              isAddOfficialPermission: Type.Boolean(),
              licenseType: Type.Integer(),
              licenseState: Type.Integer(),
            }),
          ),
          ...failureReplies,
        },
      },
    },
    async (request) => {
      const { userId } = sessionOf(request);
      const [isAdmin, isInstallationAdmin] = await Promise.all([account.isSystemAdmin(userId), account.isInstallationAdmin(userId)]);
      return ok(request, await licence.permission(isAdmin, isInstallationAdmin));
    },
  );

  // The upload is the only multipart route: the parser and its limits live in this scope alone.
  void app.register(async (scope) => {
    await acceptUploads(scope, uploadLimits);
    scope.post(
      apiPaths.licenceUpload,
      {
        onRequest: [
          requireSession,
          requireInstallationAdmin,
          // a body announced larger than any allowed upload is refused before a byte of it is read
          async (request) => {
            if (Number(request.headers['content-length'] ?? 0) > uploadBodyLimit) throw new InvalidRequest(`the upload is larger than ${uploadBodyLimit} bytes`, { status: 413 });
          },
        ],
        schema: {
          tags: ['licence'],
          summary: `Installation administrators (another system administrator: 281): uploads .lic files (multipart field "files", 1 to ${licenceLimits.maxFilesPerUpload}); each is checked and answered on its own; logged installation-wide`,
          'x-upload': { field: 'files', maxFiles: licenceLimits.maxFilesPerUpload, description: 'Licence files (.lic)' },
          headers: tokenHeaders,
          response: { 200: envelope(Type.Array(uploadResult)), ...failureReplies },
        },
      },
      async (request, reply) => {
        const files = await receiveFiles(request, reply, uploadLimits).catch((error: unknown) => {
          throw error instanceof UploadRefused ? new InvalidRequest(error.message) : error;
        });
        return ok(request, await licence.upload(files, actorOf(request), request.lang));
      },
    );
  });

  app.post(
    apiPaths.licenceDetail,
    {
      ...adminPost,
      schema: {
        tags: ['licence'],
        summary: 'One licence by id or by code',
        headers: tokenHeaders,
        body: Type.Union([Type.Object({ id: idText }, { additionalProperties: false }), Type.Object({ code: idText }, { additionalProperties: false })]),
        response: { 200: envelope(licenceDetail), ...failureReplies },
      },
    },
    async (request) => ok(request, await inLanguage(await licence.detail(request.body), request.lang)),
  );

  for (const [path, summary] of [
    [apiPaths.licenceOldDetail, 'The licence in effect now, which activating another one replaces (null when none)'],
    [apiPaths.licenceCurrentDetail, 'The licence the installation runs on (null when none)'],
  ] as const) {
    app.post(
      path,
      { ...adminPost, schema: { tags: ['licence'], summary, headers: tokenHeaders, response: { 200: envelope(Type.Union([licenceDetail, Type.Null()])), ...failureReplies } } },
      async (request) => ok(request, await inLanguage(await licence.current(), request.lang)),
    );
  }

  app.post(
    apiPaths.licenceActivate,
    {
      ...installationAdminPost,
      schema: {
        tags: ['licence'],
        summary: 'Installation administrators (another system administrator: 281): activates a stored licence for the whole installation; the one in effect before becomes replaced (6); logged installation-wide',
        headers: tokenHeaders,
        body: Type.Object({ id: idText }, { additionalProperties: false }),
        response: { 200: envelope(Type.Null()), ...failureReplies },
      },
    },
    async (request) => {
      await licence.activate(request.body.id, actorOf(request));
      return ok(request, null);
    },
  );

  app.post(
    apiPaths.licenceAppList,
    {
      ...adminPost,
      schema: { tags: ['licence'], summary: 'Applications a trial may cover (the systems of the menu catalogue)', headers: tokenHeaders, response: { 200: envelope(Type.Array(Type.Object({ appId: Type.String(), appName: Type.String() }))), ...failureReplies } },
    },
    async (request) => ok(request, await deps.menu.catalogueApps(request.lang)),
  );

  app.post(
    apiPaths.licenceSearch,
    {
      ...adminPost,
      schema: {
        tags: ['licence'],
        summary: 'One page of licences, newest first',
        headers: tokenHeaders,
        body: Type.Object(
          { page: Type.Object({ index: Type.Integer({ minimum: 1, maximum: 1_000_000 }), size: Type.Integer({ minimum: 1, maximum: licencePaging.maxPageSize }) }, { additionalProperties: false }) },
          { additionalProperties: false },
        ),
        response: { 200: envelope(Type.Object({ licenses: Type.Array(licenceRow), count: Type.Integer() })), ...failureReplies },
      },
    },
    async (request) => {
      const { index, size } = request.body.page;
      return ok(request, await licence.search(index, size));
    },
  );

  for (const path of [apiPaths.licenceSysInfos, apiPaths.productInfo]) {
    app.get(
      path,
      { schema: { tags: ['licence'], summary: 'Product name, code, version and copyright (no sign-in)', headers: languageHeaders, response: { 200: envelope(productInfoSchema), ...failureReplies } } },
      async (request) => ok(request, productInfo(request.lang, deps.productImageIds.logo)),
    );
  }

  app.get(
    apiPaths.licenceProductImages,
    {
      schema: { tags: ['licence'], summary: 'Product logo and login background URLs (no sign-in)', headers: languageHeaders, response: { 200: envelope(Type.Object({ productLogo: Type.String(), loginBg: Type.String() })), ...failureReplies } },
    },
    async (request) => {
      const images: ProductImages = { productLogo: ossObjectUrl(deps.productImageIds.logo), loginBg: ossObjectUrl(deps.productImageIds.loginBg) };
      return ok(request, images);
    },
  );

  app.get(
    apiPaths.customerInfo,
    {
      onRequest: requireSession,
      schema: { tags: ['licence'], summary: "This installation's customer number and system code", headers: tokenHeaders, response: { 200: envelope(Type.Object({ customerNo: Type.String(), systemCode: Type.String() })), ...failureReplies } },
    },
    async (request) => ok(request, await licence.customerInfo()),
  );

  app.post(
    apiPaths.addTrialLicence,
    {
      ...installationAdminPost,
      schema: {
        tags: ['licence'],
        summary: "Installation administrators (another system administrator: 281): registers the installation's one 30-day trial (administrator password digest in oprtPwd); logged installation-wide",
        headers: tokenHeaders,
        body: Type.Object(
          { appIds: Type.Array(Type.String({ minLength: 1, maxLength: 32 }), { minItems: 1, maxItems: 100, uniqueItems: true }), oprtPwd: Type.String({ minLength: 1, maxLength: 128 }) },
          { additionalProperties: false },
        ),
        response: { 200: envelope(Type.Null()), ...failureReplies },
      },
    },
    async (request) => {
      const catalogue = await deps.menu.catalogueApps(request.lang);
      const unknown = request.body.appIds.filter((id) => !catalogue.some((a) => a.appId === id));
      if (unknown.length > 0) throw new InvalidRequest(`body/appIds holds unknown applications: ${unknown.join(', ').slice(0, 200)}`);
      const user = await account.userById(sessionOf(request).userId);
      if (!user) throw new AppError(codes.tokenInvalid, { status: 401 });
      const check = { user, clientIp: request.ip, action: 'licence-trial' as const };
      await refuseIfLocked(deps.operatorPassword, check);
      await confirmOperatorPassword(deps.operatorPassword, { ...check, digest: request.body.oprtPwd, wrongCode: codes.adminPasswordWrong });
      await licence.addTrial(catalogue.filter((a) => request.body.appIds.includes(a.appId)), actorOf(request));
      return ok(request, null);
    },
  );
}
