import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { defineComponent, h } from 'vue';
import FormField from '../FormField.vue';

/** A FormField with one input bound through `control`, as every form writes it. */
function field(props: Record<string, unknown>) {
  return mount(
    defineComponent({
      setup: () => () =>
        h(
          FormField,
          { id: 'job-project', label: 'Project', ...props },
          {
            default: (f: { control: Record<string, unknown> }) =>
              h('input', { ...f.control, name: 'project_id' }),
          },
        ),
    }),
  );
}

describe('FormField', () => {
  it('ties the control to its label, its message and its warning', () => {
    const w = field({ error: 'project_id is required', warning: 'Not a project seen here' });
    const input = w.find('input');
    expect(w.find('label').attributes('for')).toBe('job-project');
    expect(input.attributes('id')).toBe('job-project');
    expect(input.attributes('aria-invalid')).toBe('true');
    expect(input.attributes('aria-describedby')).toBe('job-project-error job-project-warning');
    expect(w.find('#job-project-error').text()).toBe('project_id is required');
    expect(w.find('#job-project-warning').text()).toBe('Not a project seen here');
  });

  it('says nothing and is valid while there is no message', () => {
    const w = field({});
    expect(w.find('input').attributes('aria-invalid')).toBe('false');
    expect(w.find('input').attributes('aria-describedby')).toBe('job-project-error');
    expect(w.find('#job-project-error').text()).toBe('');
    expect(w.find('#job-project-warning').text()).toBe('');
  });
  it('marks a required field: a visible mark and aria-required', () => {
    const w = field({ required: true });
    expect(w.find('label').text()).toBe('Project *');
    expect(w.find('[data-test="required-mark"]').attributes('aria-hidden')).toBe('true');
    expect(w.find('input').attributes('aria-required')).toBe('true');
    const optional = field({});
    expect(optional.find('label').text()).toBe('Project');
    expect(optional.find('input').attributes('aria-required')).toBeUndefined();
  });
});
