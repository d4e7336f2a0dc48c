import { mount } from '@vue/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { defineComponent, h } from 'vue';
import TimeDisplaySetting from '../../features/settings/TimeDisplaySetting.vue';
import { setTimeDisplay, timeDisplay } from '../time-display';
import { formatLocalDate, formatLocalDateTime } from '../units';

afterEach(() => setTimeDisplay('local'));

describe('time display', () => {
  it('shows UTC in ISO 8601 with a 24-hour clock when chosen, and remembers the choice', () => {
    const at = '2024-05-17T20:30:59+02:00';
    expect(formatLocalDateTime(at, { timeZone: 'Europe/Stockholm', locale: 'en-GB' })).toMatch(
      /20:30 CEST/,
    );
    setTimeDisplay('iso-utc');
    expect(formatLocalDateTime(at)).toBe('2024-05-17 18:30 UTC');
    expect(formatLocalDate('2024-05-17T23:30:00-03:00')).toBe('2024-05-18');
    expect(localStorage.getItem('eo.timeDisplay')).toBe('iso-utc');
    // A caller that pins a zone keeps it.
    expect(formatLocalDateTime(at, { timeZone: 'Europe/Stockholm', locale: 'en-GB' })).toMatch(
      /20:30 CEST/,
    );
  });

  it('is switched in Settings, and what shows a time follows at once', async () => {
    const Shown = defineComponent(() => () => h('p', formatLocalDateTime('2024-05-17T08:30:00Z')));
    const shown = mount(Shown);
    const setting = mount(TimeDisplaySetting);
    expect(shown.text()).not.toContain('2024-05-17 08:30 UTC');
    await setting.find('[data-test="time-display-iso-utc"]').setValue(true);
    expect(timeDisplay.value).toBe('iso-utc');
    expect(shown.text()).toBe('2024-05-17 08:30 UTC');
    await setting.find('[data-test="time-display-local"]').setValue(true);
    expect(shown.text()).not.toContain('UTC, ISO');
    expect(timeDisplay.value).toBe('local');
  });
});
