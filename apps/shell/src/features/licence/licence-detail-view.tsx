import { Descriptions, Table } from 'antd';
import type { TableColumnsType } from 'antd';
import type { LicenceAppEdition, LicenceDetail, LicenceDeviceLimit } from '@campus/contracts';
import { beginText, deviceCountText, employeeCountText, endText, formalText, stateText, termText, yesNoText } from './licence-display.ts';
import { useDisplayContext } from './use-display-context.ts';

/** The applications (infos rows) and device limits (devices rows) of a licence (spec §3). */
export function LicenceParts({ detail }: { detail: Pick<LicenceDetail, 'infos' | 'devices'> }) {
  const context = useDisplayContext();
  const { t } = context;
  const appColumns: TableColumnsType<LicenceAppEdition> = [
    { key: 'appName', dataIndex: 'appName', title: t('licence.appName') },
    { key: 'editionName', dataIndex: 'editionName', title: t('licence.editionName') },
    { key: 'begin', title: t('licence.begin'), render: (_v: unknown, row: LicenceAppEdition) => beginText(row.beginTime, context) },
    { key: 'end', title: t('licence.end'), render: (_v: unknown, row: LicenceAppEdition) => endText(row.endTime, context) },
    { key: 'web', title: t('licence.web'), render: (_v: unknown, row: LicenceAppEdition) => yesNoText(row.isHasWeb, t) },
    { key: 'mobile', title: t('licence.mobile'), render: (_v: unknown, row: LicenceAppEdition) => yesNoText(row.isHasMobile, t) },
  ];
  const deviceColumns: TableColumnsType<LicenceDeviceLimit> = [
    { key: 'deviceName', dataIndex: 'deviceName', title: t('licence.deviceName') },
    { key: 'count', title: t('licence.count'), render: (_v: unknown, row: LicenceDeviceLimit) => deviceCountText(row.count, t) },
    { key: 'begin', title: t('licence.begin'), render: (_v: unknown, row: LicenceDeviceLimit) => beginText(row.beginTime, context) },
    { key: 'end', title: t('licence.end'), render: (_v: unknown, row: LicenceDeviceLimit) => endText(row.endTime, context) },
    { key: 'remarks', dataIndex: 'remarks', title: t('licence.remarks') },
  ];
  return (
    <>
      <Table<LicenceAppEdition>
        rowKey={(row) => `${row.appId}-${row.editionName}`}
        size="small"
        title={() => t('licence.apps')}
        columns={appColumns}
        dataSource={detail.infos}
        pagination={false}
        data-testid="licence-apps"
      />
      <Table<LicenceDeviceLimit>
        rowKey={(row) => `${row.deviceName}-${row.beginTime ?? ''}-${row.remarks}`}
        size="small"
        title={() => t('licence.devices')}
        columns={deviceColumns}
        dataSource={detail.devices}
        pagination={false}
        style={{ marginTop: 12 }}
        data-testid="licence-devices"
      />
    </>
  );
}

/** One licence in full (activation tabs): its fields by the display rules, then its applications and devices. */
export function LicenceDetailView({ detail }: { detail: LicenceDetail }) {
  const context = useDisplayContext();
  const { t } = context;
  return (
    <>
      <Descriptions
        bordered
        size="small"
        column={2}
        items={[
          { key: 'code', label: t('licence.code'), children: detail.code },
          { key: 'customer', label: t('licence.customer'), children: detail.customerName },
          { key: 'package', label: t('licence.package'), children: detail.prdPkgCategory },
          { key: 'formal', label: t('licence.formalOrTrial'), children: formalText(detail.isFormal, t) },
          { key: 'begin', label: t('licence.begin'), children: beginText(detail.beginTime, context) },
          { key: 'end', label: t('licence.end'), children: endText(detail.endTime, context) },
          { key: 'term', label: t('licence.term'), children: termText(detail.beginTime, detail.endTime, context) },
          { key: 'state', label: t('licence.state'), children: stateText(detail.state, t) },
          { key: 'empCount', label: t('licence.empCount'), children: employeeCountText(detail.empCount, t) },
          { key: 'mobile', label: t('licence.isHasMobile'), children: yesNoText(detail.isHasMobile, t) },
          { key: 'openapi', label: t('licence.isPermitOpenapi'), children: yesNoText(detail.isPermitOpenapi, t) },
          { key: 'limitDevice', label: t('licence.isLimitDevice'), children: yesNoText(detail.isLimitDevice, t) },
        ]}
        style={{ marginBottom: 12 }}
      />
      <LicenceParts detail={detail} />
    </>
  );
}
