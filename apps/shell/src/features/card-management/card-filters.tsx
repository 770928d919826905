import { Button, Form, Input, Select, Space } from 'antd';
import { useTranslation } from '../../lib/use-translation.ts';
import type { CardFilter } from './card-search.ts';
import { noCardFilter } from './card-search.ts';
import { holderLabel, useCardFilterOptions } from './card-table-queries.ts';
import type { CardTableKind } from './card-table-kinds.ts';

interface FilterValues {
  oprtId?: string | null;
  text?: string;
  cardKinds?: number[];
  states?: number[];
}

/** The filters of spec §2 (operator on administrator cards, free text, card kinds, states): applied by Search or Enter. */
export function CardFilters({ kind, onApply }: { kind: CardTableKind; onApply: (filter: CardFilter) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FilterValues>();
  const { states, kinds, operators } = useCardFilterOptions(kind);

  // the states named as the table names them (the server's list gives the values)
  const stateOptions = (states.data ?? []).map((option) => ({ value: option.value, label: t(`cardSetup.cardState.${option.value}`, { defaultValue: option.label }) }));

  const apply = (values: FilterValues) =>
    onApply({ oprtId: values.oprtId ?? null, text: values.text ?? '', cardKinds: values.cardKinds ?? [], states: values.states ?? [] });

  return (
    <Form form={form} name={`${kind}-filters`} layout="inline" role="search" aria-label={t('cardManagement.filters.label')} onFinish={apply} className="campus-card-filters">
      {kind === 'adminCards' ? (
        <Form.Item name="oprtId" label={t('cardManagement.filters.operator')}>
          <Select
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            style={{ width: 200 }}
            loading={operators.isPending}
            placeholder={t('cardManagement.filters.allOperators')}
            options={(operators.data ?? []).map((admin) => ({ value: admin.id, label: holderLabel(admin) }))}
          />
        </Form.Item>
      ) : null}
      <Form.Item name="text" label={t('cardManagement.filters.text')}>
        <Input allowClear style={{ width: 300 }} maxLength={100} placeholder={t(kind === 'adminCards' ? 'cardManagement.filters.adminTextHint' : 'cardManagement.filters.keyTextHint')} />
      </Form.Item>
      <Form.Item name="cardKinds" label={t('cardManagement.filters.cardKinds')}>
        <Select mode="multiple" allowClear style={{ minWidth: 160 }} placeholder={t('cardManagement.filters.all')} options={kinds.data ?? []} loading={kinds.isPending} />
      </Form.Item>
      <Form.Item name="states" label={t('cardManagement.filters.states')}>
        <Select mode="multiple" allowClear style={{ minWidth: 200 }} placeholder={t('cardManagement.filters.all')} options={stateOptions} loading={states.isPending} />
      </Form.Item>
      {/* one item: the two buttons wrap together, never Reset alone on a row (issue 25, item 16) */}
      <Form.Item>
        <Space>
          <Button type="primary" htmlType="submit">
            {t('cardManagement.filters.search')}
          </Button>
          <Button
            onClick={() => {
              form.resetFields();
              onApply(noCardFilter);
            }}
          >
            {t('cardManagement.filters.reset')}
          </Button>
        </Space>
      </Form.Item>
    </Form>
  );
}
