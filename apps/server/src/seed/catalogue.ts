import type { Localised } from '@campus/contracts';
import type { NewPage, NewSystem } from '../modules/menu/menu-service.ts';

/** The systems of spec §1, their pages (up to three levels) and their function codes. */

const L = (en: string, zhCN: string, zhMO: string): Localised => ({ 'en-US': en, 'zh-CN': zhCN, 'zh-MO': zhMO });

interface SystemDef extends Omit<NewSystem, 'id' | 'sortNum'> {
  functionCodes: string[];
}

export const systems: SystemDef[] = [
  { appNo: 'qy', appId: 'qy', frontRoutingAddr: 'qy', label: L('Enterprise Data', '企业数据', '企業數據'), functionCodes: ['1001000', '1001010', '1001020', '1001030', '1003163'] },
  { appNo: 'xt', appId: 'xt', frontRoutingAddr: 'qy', label: L('System Settings', '系统设置', '系統設定'), functionCodes: ['1002000', '1002003', '1002004', '1002040'] },
  { appNo: 'mj', appId: 'mj', frontRoutingAddr: 'mj', label: L('Door Access', '门禁', '門禁'), functionCodes: ['1003000', '1003001', '1003010'] },
  { appNo: 'tk', appId: 'tk', frontRoutingAddr: 'mj', label: L('Channel Gates', '通道闸机', '通道閘機'), functionCodes: ['1004000'] },
  { appNo: 'mk', appId: 'mk', frontRoutingAddr: 'monitor/mj', label: L('Building Monitor', '楼宇监控', '樓宇監控'), functionCodes: ['1004100'] },
  { appNo: 'fk', appId: 'fk', frontRoutingAddr: 'fk', label: L('Visitors', '访客', '訪客'), functionCodes: ['1006000', '1006001'] },
  { appNo: 'kq', appId: 'kq', frontRoutingAddr: 'kq', label: L('Attendance', '考勤', '考勤'), functionCodes: ['1005000', '1005001', '1005002'] },
  { appNo: 'xf', appId: 'xf', frontRoutingAddr: 'xf', label: L('Consumption', '消费', '消費'), functionCodes: ['1007000', '1007001'] },
  { appNo: 'lk', appId: 'lk', frontRoutingAddr: 'lk', label: L('Lift', '梯控', '梯控'), functionCodes: ['1008000'] },
  { appNo: 'hy', appId: 'hy', frontRoutingAddr: 'hy', label: L('Conference Rooms', '会议室', '會議室'), functionCodes: ['1009000'] },
  { appNo: 'fb', appId: 'fb', frontRoutingAddr: 'fb', label: L('Building Control', '楼宇控制', '樓宇控制'), functionCodes: ['1010000'] },
  { appNo: 'ss', appId: 'ss', frontRoutingAddr: 'ss', label: L('Dormitory', '宿舍', '宿舍'), functionCodes: ['1011000'] },
  { appNo: 'xg', appId: 'xg', frontRoutingAddr: 'xg', label: L('Patrol', '巡更', '巡更'), functionCodes: ['1012000'] },
  { appNo: 'tc', appId: 'tc', frontRoutingAddr: '', label: L('Parking', '停车场', '停車場'), functionCodes: ['1013000'] },
];

/** [id, path or '' for a group, name, title, children or function-right codes] */
type Node = { id: string; path?: string; name: string; title: Localised; perms?: string[]; children?: Node[]; isSide?: boolean; frameUrl?: string };

const page = (id: string, path: string, name: string, title: Localised, perms?: string[]): Node => ({ id, path, name, title, perms });
const group = (id: string, name: string, title: Localised, children: Node[]): Node => ({ id, name, title, children });

const pagesBySystem: Record<string, Node[]> = {
  qy: [
    page('qy-home', '/qy/homePage', 'homePage', L('Home', '首页', '首頁')),
    group('qy-org', 'organisation', L('Organisation', '组织架构', '組織架構'), [
      page('qy-department', '/qy/department', 'department', L('Departments', '部门管理', '部門管理')),
      page('qy-employee-group', '/qy/employee-group', 'employeeGroup', L('Employee Groups', '员工分组', '員工分組')),
      group('qy-employees', 'employees', L('Employees', '员工', '員工'), [
        page('qy-employee', '/qy/employee', 'employee', L('Employee List', '员工列表', '員工列表')),
        page('qy-employee-card', '/qy/employee-card', 'employeeCard', L('Employee Cards', '员工卡片', '員工卡片')),
      ]),
    ]),
    group('qy-basic', 'basicData', L('Basic Data', '基础数据', '基礎數據'), [
      page('qy-option-data', '/qy/option-data', 'optionData', L('Option Data', '选项数据', '選項數據')),
      page('qy-device-card', '/qy/device-card', 'deviceCard', L('Device Cards', '设备卡片', '設備卡片')),
      page('qy-calendar', '/qy/calendar', 'calendar', L('Corporate Calendar', '企业日历', '企業日曆')),
    ]),
    group('qy-logs', 'logs', L('Logs', '日志', '日誌'), [
      page('qy-operate-log', '/qy/operate-log', 'operateLog', L('Operation Log', '操作日志', '操作日誌'), ['1001030']),
    ]),
  ],
  xt: [
    group('xt-system', 'systemManagement', L('System Management', '系统管理', '系統管理'), [
      group('xt-users-roles', 'usersAndRoles', L('Users and Roles', '用户与角色', '用戶與角色'), [
        page('xt-user', '/qy/system/user', 'userManagement', L('User Management', '用户管理', '用戶管理'), ['1002003']),
        page('xt-role', '/qy/system/role', 'roleManagement', L('Role Management', '角色管理', '角色管理'), ['1002004']),
      ]),
      page('xt-log', '/qy/system/log', 'logManagement', L('Log Management', '日志管理', '日誌管理')),
      page('xt-open-api', '/qy/system/open-api', 'openApiManagement', L('Open API Management', '开放接口管理', '開放介面管理'), ['1002040']),
      // a report page: the server's own API documentation, shown in a frame
      { ...page('xt-api-docs', '/qy/system/api-docs', 'apiDocs', L('API Documentation', '接口文档', '介面文件'), ['1002040']), frameUrl: '/docs' },
    ]),
  ],
  mj: [
    group('mj-records', 'records', L('Records', '记录', '記錄'), [
      page('mj-action-event', '/mj/mj-action-event', 'mjActionEvent', L('Access Events', '门禁事件', '門禁事件')),
      // door-access monitoring: users of door access without the building monitor get it through this page
      page('mj-door-status', '/monitor/mj/door-status', 'doorStatus', L('Door Status Monitoring', '门状态监控', '門狀態監控')),
    ]),
    group('mj-devices', 'devices', L('Devices', '设备', '設備'), [
      page('mj-door', '/mj/door', 'door', L('Doors', '门管理', '門管理')),
      page('mj-controller', '/mj/controller', 'controller', L('Controllers', '控制器', '控制器'), ['1003010']),
      group('mj-authorisation', 'authorisation', L('Authorisations', '授权', '授權'), [
        page('mj-auth-group', '/mj/auth-group', 'authGroup', L('Authorisation Groups', '授权组', '授權組')),
        page('mj-auth-person', '/mj/auth-person', 'authPerson', L('Personal Authorisations', '人员授权', '人員授權')),
      ]),
    ]),
  ],
  tk: [page('tk-gate', '/mj/tk-gate', 'tkGate', L('Gate Channels', '闸机通道', '閘機通道'))],
  mk: [page('mk-door-monitor', '/monitor/mj/door-monitor', 'doorMonitor', L('Door Monitoring', '门禁监控', '門禁監控'))],
  fk: [
    page('fk-record', '/fk/visitor-record', 'visitorRecord', L('Visitor Records', '访客记录', '訪客記錄')),
    page('fk-appointment', '/fk/appointment', 'appointment', L('Appointments', '访客预约', '訪客預約')),
  ],
  kq: [
    group('kq-rules', 'rules', L('Rules', '考勤规则', '考勤規則'), [
      page('kq-shift', '/kq/shift', 'shift', L('Shifts', '班次', '班次')),
      page('kq-schedule', '/kq/schedule', 'schedule', L('Schedules', '排班', '排班')),
    ]),
    group('kq-reports', 'reports', L('Reports', '报表', '報表'), [
      page('kq-daily-report', '/kq/daily-report', 'dailyReport', L('Daily Report', '日报表', '日報表')),
      page('kq-monthly-report', '/kq/monthly-report', 'monthlyReport', L('Monthly Report', '月报表', '月報表'), ['1005002']),
    ]),
  ],
  xf: [
    page('xf-record', '/xf/consume-record', 'consumeRecord', L('Consumption Records', '消费记录', '消費記錄')),
    page('xf-account', '/xf/account', 'consumeAccount', L('Accounts', '消费账户', '消費帳戶')),
  ],
  lk: [
    page('lk-record', '/lk/lift-record', 'liftRecord', L('Lift Records', '梯控记录', '梯控記錄')),
    page('lk-auth', '/lk/lift-auth', 'liftAuth', L('Lift Authorisations', '梯控授权', '梯控授權')),
  ],
  hy: [
    page('hy-room', '/hy/room', 'room', L('Rooms', '会议室管理', '會議室管理')),
    page('hy-booking', '/hy/booking', 'booking', L('Bookings', '会议预约', '會議預約')),
  ],
  fb: [
    page('fb-device', '/fb/device', 'fbDevice', L('Control Devices', '控制设备', '控制設備')),
    page('fb-scene', '/fb/scene', 'scene', L('Scenes', '场景', '場景')),
  ],
  ss: [
    page('ss-room', '/ss/room', 'dormRoom', L('Rooms', '宿舍房间', '宿舍房間')),
    page('ss-check-in', '/ss/check-in', 'checkIn', L('Check-in', '入住管理', '入住管理')),
  ],
  xg: [
    page('xg-route', '/xg/route', 'patrolRoute', L('Patrol Routes', '巡更路线', '巡更路線')),
    page('xg-record', '/xg/record', 'patrolRecord', L('Patrol Records', '巡更记录', '巡更記錄')),
  ],
  tc: [
    page('tc-lot', '/parking-lot', 'parkingLot', L('Parking Lots', '停车场管理', '停車場管理')),
    page('tc-record', '/parking-record', 'parkingRecord', L('Parking Records', '停车记录', '停車記錄')),
  ],
};

export function catalogueSystems(): NewSystem[] {
  return systems.map((s, i) => ({ id: `sys-${s.appNo}`, appNo: s.appNo, appId: s.appId, frontRoutingAddr: s.frontRoutingAddr, label: s.label, sortNum: (i + 1) * 10 }));
}

/** Pages in order; sortNum ascends through systems and within each system. */
export function cataloguePages(): NewPage[] {
  const out: NewPage[] = [];
  let sort = 0;
  const walk = (appNo: string, nodes: Node[], parentId: string | null) => {
    for (const node of nodes) {
      sort += 10;
      out.push({
        id: node.id,
        appNo,
        parentId,
        path: node.path ?? '',
        name: node.name,
        title: node.title,
        sortNum: sort,
        funcRightPerms: node.perms,
        isSide: node.isSide,
        frameUrl: node.frameUrl,
      });
      if (node.children) walk(appNo, node.children, node.id);
    }
  };
  for (const s of systems) walk(s.appNo, pagesBySystem[s.appNo] ?? [], null);
  return out;
}

export function functionCodes(appNo: string): string[] {
  return systems.find((s) => s.appNo === appNo)?.functionCodes ?? [];
}
