import { defineSubApp } from '@campus/subapp-sdk';
import { version } from '../package.json';
import { mountQy } from './mount.tsx';

/** The lifecycles qiankun calls (bootstrap, mount, unmount, update). */
export const lifecycles = defineSubApp({ name: 'subapp-qy', version, mount: mountQy });
