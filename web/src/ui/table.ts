/** The win/loss table, generated from the engine's battle resolution. */
import type { BattleTable, Outcome } from '../engine';
import type { I18n } from '../i18n';
import { h } from './dom';

const MARK: Readonly<Record<Outcome, string>> = { attacker: '○', defender: '×', both: '△' };

export function renderTable(table: BattleTable, i18n: I18n): HTMLElement {
  const word: Readonly<Record<Outcome, string>> = {
    attacker: i18n.t('tableWin'),
    defender: i18n.t('tableLose'),
    both: i18n.t('tableBoth'),
  };
  const head = h('tr', {}, h('th', { text: i18n.t('tableAttacker'), attrs: { scope: 'col' }, class: 'corner' }));
  for (const d of table.defenders) head.append(h('th', { attrs: { scope: 'col' }, class: 'col-head' }, h('span', { text: i18n.kind(d) })));
  const body = h('tbody');
  table.attackers.forEach((a, i) => {
    const row = h('tr', {}, h('th', { text: i18n.kind(a), attrs: { scope: 'row' } }));
    table.defenders.forEach((d, j) => {
      const outcome = table.outcomes[i]?.[j];
      if (outcome === undefined) return;
      row.append(
        // The hover tip sits on the mark a screen reader skips: it reads the word and the headers.
        h('td', { class: `o-${outcome}` },
          h('span', { text: MARK[outcome], attrs: { 'aria-hidden': 'true', title: `${i18n.kind(a)} → ${i18n.kind(d)}: ${word[outcome]}` } }),
          h('span', { class: 'sr-only', text: word[outcome] }),
        ),
      );
    });
    body.append(row);
  });
  return h(
    'div',
    { class: 'table-body' },
    h('p', { text: i18n.t('tableIntro') }),
    h('p', { class: 'legend', text: i18n.t('tableLegend') }),
    // On a narrow screen the table scrolls sideways: the keyboard can scroll it too (a focusable
    // group named like the table; not a second region of that name beside the panel's).
    h(
      'div',
      { class: 'table-scroll', attrs: { tabindex: '0', role: 'group', 'aria-label': i18n.t('tableTitle') } },
      h('table', { class: 'battle-table' }, h('caption', { class: 'sr-only', text: i18n.t('tableTitle') }), h('thead', {}, head), body),
    ),
    h('p', { class: 'note', text: i18n.t('tableFlagNote') }),
    h('p', { class: 'note small', text: i18n.t('tableSource') }),
  );
}
