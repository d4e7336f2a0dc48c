import { mount } from '@vue/test-utils';
import { describe, expect, it, vi } from 'vitest';
import ErrorState from '../ErrorState.vue';

const error = {
  title: 'Offline',
  message: 'connect ECONNREFUSED',
  hint: 'Check the network.',
  code: 'offline',
};

describe('ErrorState', () => {
  it('says what happened, what it means and what to do, as an alert', () => {
    const wrapper = mount(ErrorState, { props: { error }, attrs: { 'data-test': 'x-error' } });
    const box = wrapper.find('[data-test="x-error"]');
    expect(box.attributes('role')).toBe('alert');
    expect(box.find('strong').text()).toBe('Offline');
    expect(box.findAll('p').map((p) => p.text())).toEqual([
      'connect ECONNREFUSED',
      'Check the network.',
    ]);
    expect(box.find('button').exists()).toBe(false);
  });

  it('offers "Try again" only when the screen can retry, and leaves the hint out on request', async () => {
    const retry = vi.fn();
    const wrapper = mount(ErrorState, {
      props: { error, onRetry: retry, compact: true, hint: false },
    });
    expect(wrapper.findAll('p')).toHaveLength(1);
    const button = wrapper.find('button');
    expect(button.classes()).toContain('btn--small');
    await button.trigger('click');
    expect(retry).toHaveBeenCalledTimes(1);
  });

  it('shows nothing without an error', () => {
    const wrapper = mount(ErrorState, { props: { error: null } });
    expect(wrapper.find('[role="alert"]').exists()).toBe(false);
  });
});
