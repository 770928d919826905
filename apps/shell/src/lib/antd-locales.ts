import type { Locale } from 'antd/es/locale';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import zhHK from 'antd/locale/zh_HK';
import type { LanguageCode } from '@campus/contracts';

/** antd's words with the pager's page-size chooser named for what it chooses: antd's Chinese calls it "page number". */
function withPageSizeName(locale: Locale, pageSize: string): Locale {
  return { ...locale, Pagination: { ...locale.Pagination, page_size: pageSize } };
}

/** antd's locale for each language of the shell; antd has no zh_MO, so Traditional Chinese (Hong Kong) stands in. */
export const antdLocales: Record<LanguageCode, Locale> = {
  'en-US': enUS,
  'zh-CN': withPageSizeName(zhCN, '每页条数'),
  'zh-MO': withPageSizeName(zhHK, '每頁條數'),
};
