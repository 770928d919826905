import { defineSubApp } from '@campus/subapp-sdk';
import { mountQy } from './mount.tsx';

/** The lifecycles qiankun calls (bootstrap, mount, unmount, update). */
export const lifecycles = defineSubApp({ mount: mountQy });
