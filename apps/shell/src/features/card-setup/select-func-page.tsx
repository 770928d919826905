import { Button, Space } from 'antd';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from '../../lib/use-translation.ts';
import { GateScreenFrame } from '../../lib/gate-screen-frame.tsx';

const ways = [
  { path: '/login', key: 'password' },
  { path: '/swipe-login', key: 'card' },
  { path: '/pwd-swipe-login', key: 'cardAndPassword' },
  { path: '/systemadmin-logincard', key: 'management' },
] as const;

/** /select-func: the ways in on a gate deployment (password, card, card and password, card management). */
export default function SelectFuncPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <GateScreenFrame screen="selectFunc" titleKey="cardSetup.selectFunc.title">
      {() => (
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          {ways.map((way, index) => (
            <Button key={way.key} block size="large" type={index === 1 ? 'primary' : 'default'} autoFocus={index === 1} onClick={() => void navigate(way.path)}>
              {t(`cardSetup.selectFunc.${way.key}`)}
            </Button>
          ))}
        </Space>
      )}
    </GateScreenFrame>
  );
}
