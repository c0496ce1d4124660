import { describe, expect, it } from 'vitest';
import { I18n } from '../i18n';
import { testEngine } from '../test-engine';
import { failureText } from './screen';

describe('failureText', () => {
  it('tells an unreachable server from a busy one and from one that answered with an error', () => {
    const ja = new I18n(testEngine().kinds, undefined, ['ja']);
    expect(failureText(ja, 'network')).toBe(ja.t('onlineUnreachable'));
    expect(failureText(ja, 'network')).not.toMatch(/network/);
    expect(failureText(ja, 'rate_limited')).toBe(ja.t('onlineBusy'));
    // Any other code is the server's answer: named, so that it can be reported.
    expect(failureText(ja, 'internal')).toContain('internal');
    expect(failureText(ja, 'internal')).not.toBe(ja.t('onlineUnreachable'));
  });
});
