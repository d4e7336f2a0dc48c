import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { h } from 'vue';
import RecordTable from '../RecordTable.vue';

const props = {
  caption: 'Jobs',
  columns: ['Workflow', { label: 'Cost', class: 'num' }, { label: 'Details', hidden: true }],
  tableTest: 'job-table',
  emptyTest: 'jobs-empty',
};

describe('RecordTable', () => {
  it('lists the rows under a caption and the column heads (a hidden head is still read out)', () => {
    const w = mount(RecordTable, {
      props: { ...props, empty: false },
      slots: { default: () => h('tr', { 'data-test': 'row' }, [h('td', 'wf-a')]) },
    });
    const table = w.find('[data-test="job-table"]');
    expect(table.find('caption').text()).toBe('Jobs');
    const heads = table.findAll('th[scope="col"]');
    expect(heads.map((th) => th.text())).toEqual(['Workflow', 'Cost', 'Details']);
    expect(heads[1]!.classes()).toContain('num');
    expect(heads[2]!.find('.sr-only').text()).toBe('Details');
    expect(table.find('tbody [data-test="row"]').text()).toBe('wf-a');
    expect(w.find('[data-test="jobs-empty"]').exists()).toBe(false);
  });

  it('says so instead when there is nothing to list', () => {
    const w = mount(RecordTable, {
      props: { ...props, empty: true },
      slots: { empty: () => 'No jobs yet.' },
    });
    expect(w.find('[data-test="jobs-empty"]').text()).toBe('No jobs yet.');
    expect(w.find('table').exists()).toBe(false);
  });
});
