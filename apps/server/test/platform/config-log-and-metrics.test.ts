import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

describe('LOG_LEVEL', () => {
  it('defaults to info and takes each pino level in any case', () => {
    expect(loadConfig({}).logLevel).toBe('info');
    for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) expect(loadConfig({ LOG_LEVEL: level.toUpperCase() }).logLevel).toBe(level);
  });

  it('refuses anything else with a ConfigError naming LOG_LEVEL and the value', () => {
    expect(() => loadConfig({ LOG_LEVEL: 'verbose' })).toThrow(ConfigError);
    expect(() => loadConfig({ LOG_LEVEL: 'verbose' })).toThrow(/LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"/);
  });
});

describe('METRICS and METRICS_ALLOW', () => {
  it('are off and loopback-only by default; METRICS_ALLOW widens the loopback list', () => {
    const defaults = loadConfig({});
    expect(defaults.metrics).toBe(false);
    expect(defaults.metricsAllow).toEqual(['127.0.0.1', '::1']);
    expect(loadConfig({ METRICS: 'on', METRICS_ALLOW: ' 10.0.0.0/8 , 192.0.2.7' }).metricsAllow).toEqual(['127.0.0.1', '::1', '10.0.0.0/8', '192.0.2.7']);
  });

  it('refuses an item that is no address or range', () => {
    expect(() => loadConfig({ METRICS_ALLOW: '10.0.0.0/8,everyone' })).toThrow(/METRICS_ALLOW .*"everyone" is none of these/);
    expect(() => loadConfig({ METRICS_ALLOW: '10.0.0.0/33' })).toThrow(ConfigError);
  });
});
